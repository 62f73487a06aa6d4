// A dropped or picked text file read as `braid get -i` reads its list: a URL per line (more URLs on
// the line, after spaces or tabs, are its mirrors), then indented option lines for it; blank lines
// and # comments skipped. Pure (no DOM), so that Node can test it.

/** The list's option names, as aria2.addUri's options; a bare indented URL or mirror= adds a mirror. */
const OPTIONS = { out: 'out', dir: 'dir', checksum: 'checksum', connections: 'split', 'limit-rate': 'max-download-limit' };

/**
 * The downloads of an -i list: [{line, uris, options}], options as aria2.addUri takes them. Throws
 * an Error naming the line of the first mistake, before anything is added.
 */
export function parseInputList(text) {
  const entries = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) {
      return;
    }
    if (!/^\s/.test(raw)) {
      entries.push({ line: i + 1, uris: line.split(/\s+/), options: {} });
      return;
    }
    const entry = entries[entries.length - 1];
    if (!entry) {
      throw new Error(`line ${i + 1}: an option line before any URL`);
    }
    const eq = line.indexOf('=');
    const key = eq < 0 ? null : line.slice(0, eq).trim();
    if (key === 'mirror' || (eq < 0 && /^[a-z][a-z0-9+.-]*:\/\//i.test(line))) {
      entry.uris.push(eq < 0 ? line : line.slice(eq + 1).trim());
    } else if (key !== null && Object.hasOwn(OPTIONS, key)) {
      entry.options[OPTIONS[key]] = line.slice(eq + 1).trim();
    } else {
      throw new Error(`line ${i + 1}: '${line}' is no option of a list (${Object.keys(OPTIONS).join(', ')}, mirror)`);
    }
  });
  if (entries.length === 0) {
    throw new Error('the list holds no URL');
  }
  return entries;
}

/** Whether a file of this name is a Metalink document (braid.addMetalink) rather than a list. */
export function isMetalink(name) {
  return /\.(meta4|metalink)$/i.test(name);
}
