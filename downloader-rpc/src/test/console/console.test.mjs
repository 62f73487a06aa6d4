// The console's pure parts, under Node's test runner (ConsoleScriptsTest runs it): the page
// arithmetic over the daemon's three lists, the URLs field, aria2's bitfield, the numbers shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageCalls, PAGE_SIZE } from '../../main/resources/dev/braid/rpc/console/queue.js';
import * as fmt from '../../main/resources/dev/braid/rpc/console/format.js';

const stat = (a, w, s) => ({ numActive: String(a), numWaiting: String(w), numStopped: String(s) });

test('the first page of a short queue takes all three lists', () => {
  const { calls, total } = pageCalls(stat(2, 3, 4), 0);
  assert.equal(total, 9);
  assert.deepEqual(calls.map((c) => [c.call[0], ...c.call.slice(1, -1), c.from, c.count]), [
    ['aria2.tellActive', 0, 2],
    ['aria2.tellWaiting', 0, 3, 0, 3],
    ['aria2.tellStopped', 0, 4, 0, 4],
  ]);
});

test('a page deep in a queue of 10,000 asks only for its 50 entries, by offset', () => {
  const { calls, total } = pageCalls(stat(5, 9000, 995), 9000);
  assert.equal(total, 10000);
  // entries 9000..9049: waiting 8995..8999, then stopped 0..44
  assert.deepEqual(calls.map((c) => c.call.slice(0, 3)), [['aria2.tellWaiting', 8995, 5], ['aria2.tellStopped', 0, 45]]);
  assert.equal(calls.reduce((n, c) => n + c.count, 0), PAGE_SIZE);
});

test('a page inside the active list keeps only its slice of tellActive', () => {
  const { calls } = pageCalls(stat(120, 0, 0), 50);
  assert.equal(calls.length, 1);
  assert.deepEqual([calls[0].call[0], calls[0].from, calls[0].count], ['aria2.tellActive', 50, 50]);
});

test('an empty queue asks for nothing', () => {
  assert.deepEqual(pageCalls(stat(0, 0, 0), 0), { calls: [], total: 0 });
});

test('URL lines: one download a line, mirrors after spaces or tabs, blanks and comments skipped', () => {
  assert.deepEqual(fmt.parseUrlLines('  http://a/x  http://b/x\r\n\n# note\nhttp://c/y\thttp://d/y\n'),
    [['http://a/x', 'http://b/x'], ['http://c/y', 'http://d/y']]);
  assert.deepEqual(fmt.parseUrlLines(' \n'), []);
});

test('aria2 bitfield: the first piece is the high bit of the first hex digit', () => {
  assert.deepEqual(fmt.pieces('c0', 2), [true, true]);
  assert.deepEqual(fmt.pieces('a0', 4), [true, false, true, false]);
  assert.deepEqual(fmt.pieces('80', 9), [true, false, false, false, false, false, false, false, false]);
});

test('numbers as shown', () => {
  assert.equal(fmt.bytes(0), '0 B');
  assert.equal(fmt.bytes(1536), '1.5 KiB');
  assert.equal(fmt.bytes(6 * 1024 * 1024), '6.0 MiB');
  assert.equal(fmt.speed(524288), '512 KiB/s');
  assert.equal(fmt.duration(75), '1 min 15 s');
  assert.equal(fmt.duration(3720), '1 h 02 min');
  assert.equal(fmt.timeLeft({ status: 'active', totalLength: '1000', completedLength: '500', downloadSpeed: '100' }), '5 s');
  assert.equal(fmt.timeLeft({ status: 'paused', totalLength: '1000', completedLength: '500', downloadSpeed: '100' }), '');
  assert.equal(fmt.percent({ status: 'active', totalLength: '0', completedLength: '10' }), null);
  assert.equal(fmt.name({ gid: 'g', files: [{ path: '/d/file.iso', uris: [] }] }), 'file.iso');
  assert.equal(fmt.name({ gid: 'g', files: [{ path: '', uris: [{ uri: 'http://h/a%20b.bin?x=1' }] }] }), 'a b.bin');
  assert.equal(fmt.name({ gid: 'g', files: [] }), 'g');
});

test('a speed limit in the field as people type it', () => {
  assert.equal(fmt.limit('25165824'), '24M');
  assert.equal(fmt.limit('512000'), '500K');
  assert.equal(fmt.limit('1000'), '1000');
  assert.equal(fmt.limit('0'), '0');
  assert.equal(fmt.limit(undefined), '0');
});

test('a worker is shown by host and pid, this daemon marked', () => {
  const self = 'nas:4242:1733400000000';
  assert.equal(fmt.worker(self, self), 'nas, pid 4242 (this daemon)');
  assert.equal(fmt.worker('w2.example:77:1', self), 'w2.example, pid 77');
  assert.equal(fmt.worker('odd-name', self), 'odd-name');
});

test('times past read as people say them', () => {
  const now = 1_000_000;
  assert.equal(fmt.ago(now - 400, now), 'just now');
  assert.equal(fmt.ago(now - 12_000, now), '12 s ago');
  assert.equal(fmt.ago(now - 185_000, now), '3 min 05 s ago');
});

test('a host\'s connections name the server\'s limit when it had one', () => {
  assert.equal(fmt.hostConnections({ connections: 8, limit: 0 }), '8');
  assert.equal(fmt.hostConnections({ connections: 4, limit: 4 }), '4 (server limit 4)');
  assert.equal(fmt.plural(1, 'download'), '1 download');
  assert.equal(fmt.plural(0, 'download'), '0 downloads');
});
