// Braid's console: signs in with the daemon's secret or an API key (kept in this tab's
// sessionStorage only), then refreshes the queue about once a second, sooner when a notification
// arrives; the details, hosts and fleet ride on the same refresh. With a read-only key (braid.whoami
// says so) the controls that change anything are hidden.
import { Rpc, RpcError } from './rpc.js';
import { QueueView, pageCalls, PAGE_SIZE, setText } from './queue.js';
import { DetailsView, DETAIL_KEYS } from './details.js';
import { HostsView } from './hosts.js';
import { FleetView } from './fleet.js';
import { Settings } from './settings.js';
import { Adder } from './adder.js';
import * as fmt from './format.js';

const SECRET_KEY = 'braid.secret';
const REFRESH_MS = 1000;
const $ = (id) => document.getElementById(id);

/** What the forms share while signed in: the connection, the daemon's folder, the status line. */
const session = { rpc: null, daemonDir: '', readOnly: false, notice, soon };
let timer = null;
let refreshing = false;
let offset = 0;
let total = 0;
const queue = new QueueView($('queue'), act);
const details = new DetailsView(document);
const hosts = new HostsView(document, soon);
const fleet = new FleetView(document, soon);
const settings = new Settings(session);
new Adder(session);

$('sign-in').addEventListener('submit', (e) => {
  e.preventDefault();
  signIn($('secret').value);
});
$('sign-out').addEventListener('click', signOut);
$('pause-all').addEventListener('click', () => run('aria2.forcePauseAll', 'Paused all downloads'));
$('resume-all').addEventListener('click', () => run('aria2.unpauseAll', 'Resumed all downloads'));
$('previous-page').addEventListener('click', () => turn(-PAGE_SIZE));
$('next-page').addEventListener('click', () => turn(PAGE_SIZE));

const kept = sessionStorage.getItem(SECRET_KEY);
if (kept !== null) {
  signIn(kept);
} else {
  $('secret').focus();
}

async function signIn(secret) {
  const message = $('sign-in-message');
  message.className = 'message';
  setText(message, 'Signing in…');
  const candidate = new Rpc(secret);
  let access;
  let aria2Options;
  let braidOptions;
  try {
    aria2Options = await candidate.call('aria2.getGlobalOption');
    access = await candidate.call('braid.whoami');
    braidOptions = await candidate.call('braid.globalOptions');
  } catch (e) {
    candidate.close();
    sessionStorage.removeItem(SECRET_KEY);
    message.className = 'message bad';
    setText(message, e instanceof RpcError && e.unauthorized
      ? 'Wrong secret: the daemon refused it.' : `Cannot sign in: ${e.message}`);
    $('secret').select();
    return;
  }
  sessionStorage.setItem(SECRET_KEY, secret);
  session.rpc = candidate;
  session.daemonDir = aria2Options.dir || '';
  session.readOnly = access.scope === 'read-only';
  candidate.onNotification(() => soon());
  setText(message, '');
  $('secret').value = '';
  $('sign-in').hidden = true;
  settings.show(aria2Options, braidOptions, session.readOnly);
  $('console').classList.toggle('read-only', session.readOnly);
  $('console').hidden = false;
  $('sign-out').hidden = false;
  if (session.readOnly) {
    notice(`Signed in with the read-only key ${access.key}: you can watch the queue, not change it.`);
    $('queue-title').focus();
  } else {
    $('urls').focus();
  }
  refresh();
}

function signOut() {
  sessionStorage.removeItem(SECRET_KEY);
  clearTimeout(timer);
  if (session.rpc) {
    session.rpc.close();
    session.rpc = null;
  }
  queue.show([]);
  details.hide();
  setText($('totals'), '');
  $('console').hidden = true;
  $('sign-out').hidden = true;
  $('sign-in').hidden = false;
  $('secret').focus();
}

/** A refresh now, unless one runs: after a notification or an action. */
function soon() {
  clearTimeout(timer);
  timer = setTimeout(refresh, 50);
}

/** One round trip for the queue's page; a second (one multicall) for its rows, the details, the hosts and the fleet. */
async function refresh() {
  const rpc = session.rpc;
  if (refreshing || !rpc) {
    return;
  }
  refreshing = true;
  clearTimeout(timer);
  try {
    const stat = await rpc.call('aria2.getGlobalStat');
    const { calls, total: count } = pageCalls(stat, offset);
    total = count;
    if (offset >= total && offset > 0) {
      offset = Math.max(0, Math.floor((total - 1) / PAGE_SIZE) * PAGE_SIZE);
      return;
    }
    const selected = queue.selected;
    const asked = calls.map((c) => c.call);
    const more = [];
    if (selected) {
      more.push(['details', ['aria2.tellStatus', selected, DETAIL_KEYS]], ['segments', ['braid.tellSegments', selected]],
        ['entry', ['braid.tellEntry', selected]]);
    }
    for (const [key, view] of [['hosts', hosts], ['fleet', fleet]]) {
      const call = view.call();
      if (call) {
        more.push([key, call]);
      }
    }
    asked.push(...more.map(([, call]) => call));
    const answers = asked.length ? await rpc.multicall(asked) : [];
    const rows = [];
    calls.forEach((c, i) => {
      if (answers[i].result) {
        rows.push(...answers[i].result.slice(c.from, c.from + c.count));
      }
    });
    const extra = Object.fromEntries(more.map(([key], i) => [key, answers[calls.length + i]]));
    queue.show(rows);
    details.sample(rows);
    setText($('totals'), `${stat.numActive} active, ${stat.numWaiting} waiting, ${stat.numStopped} stopped · `
      + `${fmt.speed(stat.downloadSpeed)}`);
    $('empty').hidden = total > 0;
    setText($('page-range'), total === 0 ? '' : `${offset + 1}–${offset + rows.length} of ${total}`);
    $('previous-page').disabled = offset === 0;
    $('next-page').disabled = offset + PAGE_SIZE >= total;
    if (selected) {
      if (extra.details.result) {
        details.show(extra.details.result, extra.segments.result, extra.entry.result);
      } else {
        // removed from the daemon's memory
        queue.select(null);
        details.hide();
      }
    }
    if (extra.hosts) {
      shown(extra.hosts, 'Hosts', (r) => hosts.show(r));
    }
    if (extra.fleet) {
      shown(extra.fleet, 'Fleet', (r) => fleet.show(r));
    }
  } catch (e) {
    if (e instanceof RpcError && e.unauthorized) {
      signOut();
      setText($('sign-in-message'), 'The daemon no longer accepts this secret: sign in again.');
      return;
    }
    notice(`Cannot reach the daemon: ${e.message}`, true);
  } finally {
    refreshing = false;
    if (session.rpc) {
      clearTimeout(timer);
      timer = setTimeout(refresh, REFRESH_MS);
    }
  }
}

/** A multicall answer to its view, or its error to the status line. */
function shown(answer, label, show) {
  if (answer.result) {
    show(answer.result);
  } else {
    notice(`${label}: ${answer.error ? answer.error.message : 'no answer'}`, true);
  }
}

function turn(by) {
  offset = Math.max(0, offset + by);
  soon();
}

/** A row's button: select, pause, resume or remove the download of status s. */
async function act(kind, s) {
  if (kind === 'select') {
    queue.select(queue.selected === s.gid ? null : s.gid);
    if (!queue.selected) {
      details.hide();
    }
    soon();
    return;
  }
  const name = fmt.name(s);
  const live = ['active', 'waiting', 'paused'].includes(s.status);
  const method = { pause: 'aria2.forcePause', resume: 'aria2.unpause',
    remove: live ? 'aria2.forceRemove' : 'aria2.removeDownloadResult' }[kind];
  const done = { pause: `Paused ${name}`, resume: `Resumed ${name}`, remove: `Removed ${name}` }[kind];
  if (kind === 'remove' && queue.selected === s.gid && !live) {
    queue.select(null);
    details.hide();
  }
  await run(method, done, s.gid);
}

async function run(method, done, ...params) {
  try {
    await session.rpc.call(method, ...params);
    notice(done);
  } catch (e) {
    notice(`${method.replace('aria2.', '')}: ${e.message}`, true);
  }
  soon();
}

function notice(text, bad = false) {
  const el = $('notice');
  el.className = bad ? 'message bad' : 'message';
  setText(el, text);
}
