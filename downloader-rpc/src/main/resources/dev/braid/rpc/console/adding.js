// What the add form and a dropped file become: aria2.addUri's options from the form's fields, and a
// dropped file as a Metalink document (braid.addMetalink) or an -i list (aria2.addUri per entry).
import { parseInputList, isMetalink } from './inputlist.js';

/**
 * aria2.addUri's options from the add form's fields (blank ones left out): dir, out, checksum,
 * split (the connections), max-download-limit, and headers, one per line, as aria2's header list.
 */
export function addOptions(fields) {
  const options = {};
  for (const key of ['dir', 'out', 'checksum', 'split', 'max-download-limit']) {
    const value = String(fields[key] ?? '').trim();
    if (value) {
      options[key] = value;
    }
  }
  const headers = String(fields.headers ?? '').split(/\r?\n/).map((h) => h.trim()).filter(Boolean);
  if (headers.length) {
    options.header = headers;
  }
  return options;
}

/** A folder for braid.addMetalink, which takes a path: a relative one is under the daemon's folder, as addUri's dir. */
export function metalinkFolder(folder, daemonDir) {
  const f = String(folder ?? '').trim();
  if (f.startsWith('/') || /^[A-Za-z]:[\\/]/.test(f)) {
    return f;
  }
  return f ? `${daemonDir.replace(/[\\/]+$/, '')}/${f}` : daemonDir;
}

/**
 * A File read for adding: {metalink: braid.addMetalink's argument} for a .meta4 or .metalink file,
 * else {list: [{line, uris, options}]} with the folder field's dir under each entry's own options.
 */
export async function readDropped(file, folder, daemonDir) {
  if (isMetalink(file.name)) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) {
      binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    }
    return { metalink: { document: btoa(binary), folder: metalinkFolder(folder, daemonDir) } };
  }
  const dir = String(folder ?? '').trim();
  const list = parseInputList(await file.text());
  return { list: list.map((e) => ({ ...e, options: { ...(dir ? { dir } : {}), ...e.options } })) };
}
