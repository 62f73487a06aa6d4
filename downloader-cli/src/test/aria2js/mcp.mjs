// Drives a real `braid mcp` child with the official MCP TypeScript client (McpClientTest): lists
// the tools, adds a download and waits for it, reads its status and the list, refuses bad calls,
// pauses, resumes and removes a slow download, and closes the pipe while a held download runs.
// Prints one JSON object of what it saw.
// argv[2]: {command, args, cwd, env, url, sha256, slowUrl, heldUrl, folder}
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const cfg = JSON.parse(process.argv[2]);
const transport = new StdioClientTransport({
  command: cfg.command, args: cfg.args, cwd: cfg.cwd, env: { ...process.env, ...cfg.env }, stderr: 'pipe',
});
let stderr = '';
transport.stderr.on('data', (d) => { stderr += d; });
// a line on the server's standard output that is no protocol message arrives here
const transportErrors = [];
transport.onerror = (e) => transportErrors.push(String(e));
const client = new Client({ name: 'braid-mcp-test', version: '1.0.0' });
const started = Date.now();
await client.connect(transport);
const r = { server: client.getServerVersion() };
const steps = [];
const call = async (name, args) => {
  const t = Date.now();
  const result = await client.callTool({ name, arguments: args });
  steps.push(`${name} ${Date.now() - t} ms`);
  return result;
};

r.tools = (await client.listTools()).tools.map((t) => ({
  name: t.name,
  required: t.inputSchema.required ?? [],
  properties: Object.keys(t.inputSchema.properties ?? {}),
  described: Boolean(t.description) && Object.values(t.inputSchema.properties ?? {}).every((p) => Boolean(p.description)),
}));

r.added = await call('add_download', { url: cfg.url, folder: cfg.folder, file_name: 'a.bin', checksum: 'sha-256=' + cfg.sha256 });
const id = r.added.structuredContent.id;
r.waited = await call('wait_for_download', { id, timeout_seconds: 30 });
r.status = await call('download_status', { id });
r.list = await call('list_downloads', {});

// refusals: each a tool error, and the server answers the next call
r.badUrl = await call('add_download', { url: 'ftp://127.0.0.1/x.bin', folder: cfg.folder });
r.unknown = await call('download_status', { id: 987654 });
r.relative = await call('add_download', { url: cfg.url, folder: 'relative/dir' });
r.badChecksum = await call('add_download', { url: cfg.url, folder: cfg.folder, checksum: 'sha-256=abc' });
r.notAnId = await call('pause_download', { id: 'seven' });

r.slowAdded = await call('add_download', { url: cfg.slowUrl, folder: cfg.folder });
const slow = r.slowAdded.structuredContent.id;
await call('pause_download', { id: slow });
r.paused = await call('wait_for_download', { id: slow, timeout_seconds: 20 });
r.resumed = await call('resume_download', { id: slow });
r.removed = await call('remove_download', { id: slow, delete_file: true });
r.afterRemove = await call('download_status', { id: slow });
r.listAfter = await call('list_downloads', {});

// the client goes away while a download runs: the server ends on its own (the SDK's close waits
// 2 s for that before it sends SIGTERM), its engine keeping the download for a later resume
r.held = await call('add_download', { url: cfg.heldUrl, folder: cfg.folder });
const held = r.held.structuredContent.id;
for (let t = Date.now(); Date.now() - t < 20000;) {
  r.heldBefore = await call('download_status', { id: held });
  if (r.heldBefore.structuredContent.done > 0) break;
  await new Promise((resolve) => setTimeout(resolve, 50));
}
const closing = Date.now();
await client.close();
r.closeMs = Date.now() - closing;
r.transportErrors = transportErrors;
r.elapsedMs = Date.now() - started;
r.steps = steps;
r.stderr = stderr;
console.log(JSON.stringify(r));
