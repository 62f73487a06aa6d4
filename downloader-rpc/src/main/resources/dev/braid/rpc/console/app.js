// Braid's console: signs in with the daemon's secret or an API key (kept in this tab's
// sessionStorage only), then refreshes the queue about once a second, sooner when a notification
// arrives. With a read-only key (braid.whoami says so) the controls that change anything are hidden.
import { Rpc, RpcError } from './rpc.js';
import { QueueView, pageCalls, PAGE_SIZE, setText } from './queue.js';
import { DetailsView, DETAIL_KEYS } from './details.js';
import * as fmt from './format.js';
import { addOptions, readDropped } from './adding.js';

const SECRET_KEY = 'braid.secret';
const REFRESH_MS = 1000;
const $ = (id) => document.getElementById(id);

let rpc = null;
let timer = null;
let refreshing = false;
let offset = 0;
let total = 0;
let daemonDir = '';
const queue = new QueueView($('queue'), act);
const details = new DetailsView(document);

$('sign-in').addEventListener('submit', (e) => {
  e.preventDefault();
  signIn($('secret').value);
});
$('sign-out').addEventListener('click', signOut);
$('add-form').addEventListener('submit', (e) => {
  e.preventDefault();
  add();
});
$('limit-form').addEventListener('submit', (e) => {
  e.preventDefault();
  setLimit();
});
$('windows-form').addEventListener('submit', (e) => {
  e.preventDefault();
  setSchedule('runWindows', $('run-windows'), $('windows-error'), 'Run windows');
});
$('schedule-form').addEventListener('submit', (e) => {
  e.preventDefault();
  setSchedule('speedSchedule', $('speed-schedule'), $('schedule-error'), 'Speed schedule');
});
$('list-file').addEventListener('change', () => {
  addFiles($('list-file').files);
  $('list-file').value = '';
});
document.addEventListener('dragover', (e) => {
  if (rpc && e.dataTransfer.types.includes('Files')) {
    e.preventDefault();
    document.body.classList.add('dragging');
  }
});
document.addEventListener('dragleave', (e) => {
  if (e.relatedTarget === null) {
    document.body.classList.remove('dragging');
  }
});
document.addEventListener('drop', (e) => {
  document.body.classList.remove('dragging');
  if (rpc && e.dataTransfer.files.length > 0) {
    e.preventDefault();
    addFiles(e.dataTransfer.files);
  }
});
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
  try {
    const limit = await candidate.call('aria2.getGlobalOption');
    $('limit').value = fmt.limit(limit['max-overall-download-limit']);
    daemonDir = limit.dir || '';
    access = await candidate.call('braid.whoami');
    const options = await candidate.call('braid.globalOptions');
    $('run-windows').value = options.runWindows;
    $('speed-schedule').value = options.speedSchedule;
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
  rpc = candidate;
  rpc.onNotification(() => soon());
  setText(message, '');
  $('secret').value = '';
  $('sign-in').hidden = true;
  const readOnly = access.scope === 'read-only';
  $('console').classList.toggle('read-only', readOnly);
  for (const id of ['limit', 'run-windows', 'speed-schedule']) {
    $(id).readOnly = readOnly;
  }
  $('console').hidden = false;
  $('sign-out').hidden = false;
  if (readOnly) {
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
  if (rpc) {
    rpc.close();
    rpc = null;
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

async function refresh() {
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
    if (selected) {
      asked.push(['aria2.tellStatus', selected, DETAIL_KEYS], ['braid.tellSegments', selected], ['braid.tellEntry', selected]);
    }
    const answers = asked.length ? await rpc.multicall(asked) : [];
    const rows = [];
    calls.forEach((c, i) => {
      if (answers[i].result) {
        rows.push(...answers[i].result.slice(c.from, c.from + c.count));
      }
    });
    queue.show(rows);
    details.sample(rows);
    setText($('totals'), `${stat.numActive} active, ${stat.numWaiting} waiting, ${stat.numStopped} stopped · `
      + `${fmt.speed(stat.downloadSpeed)}`);
    $('empty').hidden = total > 0;
    setText($('page-range'), total === 0 ? '' : `${offset + 1}–${offset + rows.length} of ${total}`);
    $('previous-page').disabled = offset === 0;
    $('next-page').disabled = offset + PAGE_SIZE >= total;
    if (selected) {
      const [detail, segments, entry] = answers.slice(-3);
      if (detail.result) {
        details.show(detail.result, segments.result, entry.result);
      } else {
        // removed from the daemon's memory
        queue.select(null);
        details.hide();
      }
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
    if (rpc) {
      clearTimeout(timer);
      timer = setTimeout(refresh, REFRESH_MS);
    }
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
    await rpc.call(method, ...params);
    notice(done);
  } catch (e) {
    notice(`${method.replace('aria2.', '')}: ${e.message}`, true);
  }
  soon();
}

async function add() {
  const lines = fmt.parseUrlLines($('urls').value);
  if (lines.length === 0) {
    notice('Nothing to add: put one URL per line in the URLs field.', true);
    $('urls').focus();
    return;
  }
  const options = addOptions({
    dir: $('folder').value, out: $('out').value, checksum: $('checksum').value, split: $('connections').value,
    'max-download-limit': $('download-limit').value, headers: $('headers').value,
  });
  try {
    const answers = await rpc.multicall(lines.map((uris) => ['aria2.addUri', uris, options]));
    const failed = answers.map((a, i) => (a.error ? `${lines[i][0]}: ${a.error.message}` : null)).filter(Boolean);
    const added = answers.length - failed.length;
    if (failed.length) {
      // keep the refused lines in the field, to be fixed and added again
      $('urls').value = lines.filter((_, i) => answers[i].error).map((l) => l.join(' ')).join('\n');
      notice(`Added ${added}; refused: ${failed.join('; ')}`, true);
    } else {
      $('urls').value = '';
      notice(`Added ${added} download${added === 1 ? '' : 's'}`);
    }
  } catch (e) {
    notice(`Cannot add: ${e.message}`, true);
  }
  soon();
}

/** Dropped or picked files: a Metalink document to braid.addMetalink, a text file as an -i list to aria2.addUri. */
async function addFiles(files) {
  if ($('console').classList.contains('read-only')) {
    notice('A read-only key cannot add downloads.', true);
    return;
  }
  for (const file of files) {
    let what;
    try {
      what = await readDropped(file, $('folder').value, daemonDir);
    } catch (e) {
      notice(`${file.name}: ${e.message}`, true);
      continue;
    }
    try {
      if (what.metalink) {
        const gids = await rpc.call('braid.addMetalink', what.metalink, false);
        notice(`Added ${gids.length} download${gids.length === 1 ? '' : 's'} from ${file.name}`);
      } else {
        const answers = await rpc.multicall(what.list.map((e) => ['aria2.addUri', e.uris, e.options]));
        const failed = answers.map((a, i) => (a.error ? `line ${what.list[i].line}: ${a.error.message}` : null)).filter(Boolean);
        const added = answers.length - failed.length;
        notice(`Added ${added} download${added === 1 ? '' : 's'} from ${file.name}`
          + (failed.length ? `; refused: ${failed.join('; ')}` : ''), failed.length > 0);
      }
    } catch (e) {
      notice(`${file.name}: ${e.message}`, true);
    }
  }
  soon();
}

/** Sets one of braid.globalOptions (runWindows or speedSchedule) to the field's text; the daemon's refusal shows beside it. */
async function setSchedule(key, field, error, label) {
  if (field.readOnly) {
    return;
  }
  const value = field.value.trim();
  try {
    const options = await rpc.call('braid.globalOptions');
    options[key] = value;
    await rpc.call('braid.changeGlobalOptions', options);
    setText(error, '');
    field.removeAttribute('aria-invalid');
    notice(value ? `${label} set to ${value}` : `${label}: none`);
  } catch (e) {
    setText(error, e.message);
    field.setAttribute('aria-invalid', 'true');
    field.focus();
  }
}

async function setLimit() {
  if ($('limit').readOnly) {
    return;
  }
  const value = $('limit').value.trim() || '0';
  try {
    await rpc.call('aria2.changeGlobalOption', { 'max-overall-download-limit': value });
    notice(value === '0' ? 'No speed limit' : `Speed limit set to ${value}`);
  } catch (e) {
    notice(`Speed limit: ${e.message}`, true);
  }
}

function notice(text, bad = false) {
  const el = $('notice');
  el.className = bad ? 'message bad' : 'message';
  setText(el, text);
}
