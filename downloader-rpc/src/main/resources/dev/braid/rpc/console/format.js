// Numbers as people read them; pure functions (no DOM), so that Node can test them.

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** 1536 -> "1.5 KiB". */
export function bytes(n) {
  let v = Number(n) || 0;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(v < 10 ? 1 : 0)} ${UNITS[u]}`;
}

/**
 * A rate limit in bytes per second as the limit fields take it: "24M" for 25165824, "500K",
 * else the plain number; "0" (no limit) stays "0".
 */
export function limit(bytesPerSecond) {
  const n = Number(bytesPerSecond) || 0;
  if (n > 0 && n % (1024 * 1024) === 0) {
    return `${n / (1024 * 1024)}M`;
  }
  if (n > 0 && n % 1024 === 0) {
    return `${n / 1024}K`;
  }
  return String(n);
}

export function speed(bytesPerSecond) {
  return `${bytes(bytesPerSecond)}/s`;
}

/** Seconds as "1 h 02 min", "3 min 05 s", "12 s"; "" when unknown. */
export function duration(seconds) {
  if (!Number.isFinite(seconds) || seconds < 0) {
    return '';
  }
  const s = Math.round(seconds);
  if (s >= 3600) {
    return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
  }
  if (s >= 60) {
    return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  }
  return `${s} s`;
}

/** The time left of a status, "" when it cannot be told (no speed, no length, or done). */
export function timeLeft(status) {
  const total = Number(status.totalLength);
  const done = Number(status.completedLength);
  const rate = Number(status.downloadSpeed);
  if (status.status !== 'active' || !(total > 0) || !(rate > 0) || done >= total) {
    return '';
  }
  return duration((total - done) / rate);
}

/** Done as a percentage 0..100, or null when the length is unknown. */
export function percent(status) {
  const total = Number(status.totalLength);
  if (!(total > 0)) {
    return status.status === 'complete' ? 100 : null;
  }
  return Math.min(100, (Number(status.completedLength) / total) * 100);
}

/** What a download is called: its file's name, else the last part of its first URL, else its gid. */
export function name(status) {
  const file = status.files && status.files[0];
  if (file && file.path) {
    return file.path.split(/[\\/]/).pop();
  }
  const uri = file && file.uris && file.uris[0] && file.uris[0].uri;
  if (uri) {
    try {
      const last = new URL(uri).pathname.split('/').pop();
      return decodeURIComponent(last) || uri;
    } catch {
      return uri;
    }
  }
  return status.gid;
}

/**
 * The lines of the URLs field as addUri calls: one download per line, its mirrors after the first
 * URL, separated by spaces or tabs, as in an -i list; blank lines and # comments skipped.
 */
export function parseUrlLines(text) {
  return text.split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.split(/\s+/));
}

/** aria2's hexadecimal bitfield as an array of booleans (piece i complete), numPieces long. */
export function pieces(bitfield, numPieces) {
  const out = new Array(numPieces).fill(false);
  for (let i = 0; i < numPieces; i++) {
    const nibble = parseInt(bitfield[i >> 2] || '0', 16);
    out[i] = ((nibble >> (3 - (i & 3))) & 1) === 1;
  }
  return out;
}

const ms = (n) => `${Number(n) || 0} ms`;
const count = (n, one, many = one + 's') => `${Number(n) || 0} ${Number(n) === 1 ? one : many}`;

/**
 * What the engine measured of a download (a braid.tellEntry entry), as sentences: its completing
 * run, its connections' phase timings, the changes of its connection count.
 */
export function measured(entry) {
  const lines = [];
  if (entry.fetched !== undefined) {
    lines.push(`Completed in ${duration(Number(entry.elapsedMillis) / 1000)}: ${bytes(entry.fetched)} fetched, `
      + `${bytes(entry.reused)} reused, ${count(entry.restarts, 'restart')}`
      + (entry.restartReason ? ` (${entry.restartReason})` : ''));
  }
  const m = entry.metrics;
  if (m) {
    lines.push(`${count(m.connectionsOpened, 'connection')} opened, ${ms(m.connectMillis)} connecting`);
    lines.push(`${count(m.requests, 'request')}, ${m.reusedRequests} on reused connections, `
      + `first byte after ${ms(m.firstByteMillis)} on average`);
    lines.push(`${count(m.dnsLookups, 'DNS lookup')} (${m.dnsCacheHits} from the cache), ${ms(m.dnsMillis)}`);
    if (Number(m.tlsHandshakes) > 0) {
      lines.push(`${count(m.tlsHandshakes, 'TLS handshake')} (${m.tlsResumed} resumed), ${ms(m.tlsMillis)}`);
    }
    lines.push(`${count(m.retries, 'retry', 'retries')}, ${bytes(m.bytes)} received`);
  }
  for (const change of entry.connectionChanges || []) {
    lines.push(change);
  }
  return lines;
}

/** "1 download", "3 downloads". */
export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** How long ago epoch milliseconds then was, at now: "just now", "12 s ago", "3 min 05 s ago". */
export function ago(then, now) {
  const seconds = (now - Number(then)) / 1000;
  return seconds < 1 ? 'just now' : `${duration(seconds)} ago`;
}

/** A worker's name (host:pid:start) as "host, pid 123", with "(this daemon)" for self. */
export function worker(name, self) {
  const [host, pid] = String(name).split(':');
  const shown = pid === undefined ? String(name) : `${host}, pid ${pid}`;
  return name === self ? `${shown} (this daemon)` : shown;
}

/** A host's connections as learned: "4 (server limit 4)", "8". */
export function hostConnections(h) {
  return h.limit > 0 ? `${h.connections} (server limit ${h.limit})` : String(h.connections);
}
