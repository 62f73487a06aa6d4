// Issue 19's "done means" as a user's client does it, with aria2.js over WebSocket: adds the URLs,
// watches the queue each second with tellActive, tellWaiting, tellStopped and getGlobalStat,
// pauses some downloads and resumes them, and hears every completion. Prints what it saw as one
// JSON object on stdout for DaemonFiftyDownloadsTest to judge.
// Usage: node fifty.js PORT SECRET URL...
"use strict";
const Aria2 = require("aria2");

const [port, secret, ...urls] = process.argv.slice(2);
const aria2 = new Aria2({ host: "127.0.0.1", port: Number(port), secure: false, secret, path: "/jsonrpc" });
const events = [];
for (const name of ["onDownloadStart", "onDownloadPause", "onDownloadStop", "onDownloadComplete", "onDownloadError"]) {
  aria2.on(name, ([{ gid }]) => events.push({ event: name, gid }));
}
const completed = () => new Set(events.filter((e) => e.event === "onDownloadComplete").map((e) => e.gid));

// one look at the queue, as a front end's refresh does it
async function look() {
  const [active, waiting, stopped, stat] = await Promise.all([
    aria2.call("tellActive", ["gid", "status", "completedLength", "totalLength"]),
    aria2.call("tellWaiting", 0, 1000, ["gid", "status"]),
    aria2.call("tellStopped", 0, 1000, ["gid", "status"]),
    aria2.call("getGlobalStat"),
  ]);
  return { active: active.length, waiting: waiting.length, stopped: stopped.length, stat,
    waitingGids: waiting.map((s) => s.gid),
    // the latest started first: the furthest from finishing before the pause reaches them
    activeGids: active.slice().sort((a, b) => Number(a.completedLength) - Number(b.completedLength)).map((s) => s.gid),
    pausedGids: waiting.filter((s) => s.status === "paused").map((s) => s.gid) };
}

async function main() {
  await aria2.open();
  const out = { added: [], looks: [] };
  for (let i = 0; i < urls.length; i++) {
    out.added.push(await aria2.call("addUri", [urls[i]], { out: `f${i}.bin` }));
  }
  let first = await look();
  out.looks.push(first);
  // pause two running downloads and three waiting ones, look again a second later, resume them
  out.paused = first.activeGids.slice(0, 2).concat(first.waitingGids.slice(0, 3));
  for (const gid of out.paused) {
    await aria2.call("forcePause", gid);
  }
  const deadline = Date.now() + 120000;
  let resumed = false;
  while (completed().size < urls.length) {
    if (Date.now() > deadline) {
      throw new Error(`only ${completed().size} of ${urls.length} completions heard: ${JSON.stringify(events)}`);
    }
    await new Promise((r) => setTimeout(r, 1000));
    const l = await look();
    out.looks.push(l);
    if (!resumed) {
      out.pausedSeen = l.pausedGids;
      for (const gid of out.paused) {
        await aria2.call("unpause", gid);
      }
      resumed = true;
    }
  }
  out.last = await look();
  out.events = events;
  await aria2.close();
  process.stdout.write(JSON.stringify(out) + "\n");
}

main().then(() => process.exit(0), (e) => {
  process.stderr.write(String(e && e.stack || e) + "\n");
  process.exit(1);
});
