// The console's adding, under Node's test runner (ConsoleScriptsTest runs it): a dropped text file
// read as an -i list, the add form's options, the folder of a dropped Metalink, what was measured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseInputList, isMetalink } from '../../main/resources/dev/braid/rpc/console/inputlist.js';
import { addOptions, metalinkFolder } from '../../main/resources/dev/braid/rpc/console/adding.js';
import { measured } from '../../main/resources/dev/braid/rpc/console/format.js';

test('an -i list: a URL a line, mirrors after spaces or tabs, blanks and comments skipped', () => {
  const list = parseInputList('# my list\r\nhttp://a/x  http://b/x\n\nhttp://c/y\thttp://d/y\n');
  assert.deepEqual(list, [
    { line: 2, uris: ['http://a/x', 'http://b/x'], options: {} },
    { line: 4, uris: ['http://c/y', 'http://d/y'], options: {} },
  ]);
});

test("an -i list's indented option lines become addUri options and mirrors of the URL above", () => {
  const list = parseInputList('http://a/x\n  out=x.iso\n  checksum=sha-256=ab12\n  connections=4\n'
    + '  limit-rate=1M\n  dir=isos\n  mirror=http://m/x\n  http://n/x\nhttp://c/y\n');
  assert.deepEqual(list[0], {
    line: 1,
    uris: ['http://a/x', 'http://m/x', 'http://n/x'],
    options: { out: 'x.iso', checksum: 'sha-256=ab12', split: '4', 'max-download-limit': '1M', dir: 'isos' },
  });
  assert.deepEqual(list[1], { line: 9, uris: ['http://c/y'], options: {} });
});

test('a mistake in a list names its line, and nothing is taken from it', () => {
  assert.throws(() => parseInputList('  out=x\nhttp://a/x\n'), /line 1: an option line before any URL/);
  assert.throws(() => parseInputList('http://a/x\n\n  speed=3\n'), /line 3: 'speed=3' is no option/);
  assert.throws(() => parseInputList('http://a/x\n  toString=3\n'), /line 2: 'toString=3' is no option/);
  assert.throws(() => parseInputList('# nothing\n\n'), /holds no URL/);
});

test('Metalink files are told by their names', () => {
  assert.equal(isMetalink('ubuntu.META4'), true);
  assert.equal(isMetalink('x.metalink'), true);
  assert.equal(isMetalink('urls.txt'), false);
  assert.equal(isMetalink('meta4.txt'), false);
});

test("the add form's fields as addUri options: blanks left out, headers one per line", () => {
  assert.deepEqual(addOptions({ dir: ' isos ', out: '', checksum: 'sha-256=ab', split: '4', 'max-download-limit': ' ',
    headers: 'Authorization: Bearer t\r\n\n  X-A: 1  \n' }),
  { dir: 'isos', checksum: 'sha-256=ab', split: '4', header: ['Authorization: Bearer t', 'X-A: 1'] });
  assert.deepEqual(addOptions({ headers: '' }), {});
});

test("a dropped Metalink's folder: a relative one under the daemon's folder, as addUri's dir", () => {
  assert.equal(metalinkFolder('isos', '/srv/dl/'), '/srv/dl/isos');
  assert.equal(metalinkFolder('', '/srv/dl'), '/srv/dl');
  assert.equal(metalinkFolder('/data/x', '/srv/dl'), '/data/x');
});

test('what the engine measured, as sentences', () => {
  assert.deepEqual(measured({}), []);
  const lines = measured({
    fetched: 2048, reused: 0, elapsedMillis: 1500, restarts: 1, restartReason: 'the file changed',
    metrics: { connectionsOpened: 1, connectMillis: 3, requests: 4, reusedRequests: 3, firstByteMillis: 2, dnsLookups: 0,
      dnsCacheHits: 0, dnsMillis: 0, tlsHandshakes: 0, tlsResumed: 0, tlsMillis: 0, retries: 0, bytes: 2048 },
    connectionChanges: ['0.2s connections 1 -> 4: fast server'],
  });
  assert.deepEqual(lines, [
    'Completed in 2 s: 2.0 KiB fetched, 0 B reused, 1 restart (the file changed)',
    '1 connection opened, 3 ms connecting',
    '4 requests, 3 on reused connections, first byte after 2 ms on average',
    '0 DNS lookups (0 from the cache), 0 ms',
    '0 retries, 2.0 KiB received',
    '0.2s connections 1 -> 4: fast server',
  ]);
});
