// The queue's rows: one page of the daemon's three lists (active, waiting, stopped), so that a
// queue of 10,000 entries costs one page of rows; rows are kept by gid and updated in place.
import * as fmt from './format.js';

export const PAGE_SIZE = 50;
const KEYS = ['gid', 'status', 'totalLength', 'completedLength', 'downloadSpeed', 'connections', 'files', 'errorMessage'];

/**
 * The calls that fetch entries [offset, offset + PAGE_SIZE) of active ++ waiting ++ stopped, given
 * the counts of getGlobalStat; with the slice of tellActive's answer to keep.
 */
export function pageCalls(stat, offset) {
  const active = Number(stat.numActive);
  const waiting = Number(stat.numWaiting);
  const stopped = Number(stat.numStopped);
  const end = offset + PAGE_SIZE;
  const span = (from, to) => [Math.max(offset, from) - from, Math.max(0, Math.min(end, to) - Math.max(offset, from))];
  const [a0, an] = span(0, active);
  const [w0, wn] = span(active, active + waiting);
  const [s0, sn] = span(active + waiting, active + waiting + stopped);
  const calls = [];
  if (an > 0) {
    calls.push({ call: ['aria2.tellActive', KEYS], from: a0, count: an });
  }
  if (wn > 0) {
    calls.push({ call: ['aria2.tellWaiting', w0, wn, KEYS], from: 0, count: wn });
  }
  if (sn > 0) {
    calls.push({ call: ['aria2.tellStopped', s0, sn, KEYS], from: 0, count: sn });
  }
  return { calls, total: active + waiting + stopped };
}

/** The rows of the list element, made and updated from statuses; buttons call actions(kind, status). */
export class QueueView {
  #list;
  #rows = new Map();
  #actions;
  #selected = null;

  constructor(list, actions) {
    this.#list = list;
    this.#actions = actions;
  }

  get selected() {
    return this.#selected;
  }

  select(gid) {
    this.#selected = gid;
    for (const [g, row] of this.#rows) {
      row.el.setAttribute('aria-current', String(g === gid));
      row.name.setAttribute('aria-pressed', String(g === gid));
    }
  }

  /** Shows exactly these statuses, in this order. */
  show(statuses) {
    const seen = new Set();
    statuses.forEach((s, i) => {
      seen.add(s.gid);
      let row = this.#rows.get(s.gid);
      if (!row) {
        row = this.#make(s.gid);
        this.#rows.set(s.gid, row);
      }
      row.status = s;
      this.#update(row, s);
      // move only what is out of place: moving a row would take the focus from its buttons
      if (this.#list.children[i] !== row.el) {
        this.#list.insertBefore(row.el, this.#list.children[i] || null);
      }
    });
    for (const [gid, row] of this.#rows) {
      if (!seen.has(gid)) {
        row.el.remove();
        this.#rows.delete(gid);
      }
    }
  }

  #make(gid) {
    const el = document.createElement('li');
    el.className = 'row';
    el.dataset.gid = gid;
    const name = button('', 'name');
    name.setAttribute('aria-pressed', 'false');
    name.addEventListener('click', () => this.#actions('select', this.#rows.get(gid).status));
    const state = span('state');
    const progressCell = document.createElement('div');
    progressCell.className = 'progress';
    const bar = document.createElement('progress');
    bar.max = 100;
    const pct = span('pct');
    progressCell.append(bar, ' ', pct);
    const speed = span('speed');
    const left = span('left');
    const conns = span('connections');
    const actions = document.createElement('div');
    actions.className = 'actions write';
    const pause = button('Pause');
    const resume = button('Resume');
    const remove = button('Remove');
    for (const [b, kind] of [[pause, 'pause'], [resume, 'resume'], [remove, 'remove']]) {
      b.addEventListener('click', () => this.#actions(kind, this.#rows.get(gid).status));
    }
    actions.append(pause, resume, remove);
    el.append(name, state, progressCell, speed, left, conns, actions);
    el.setAttribute('aria-current', String(gid === this.#selected));
    name.setAttribute('aria-pressed', String(gid === this.#selected));
    return { el, name, state, bar, pct, speed, left, conns, pause, resume, remove };
  }

  #update(row, s) {
    const label = fmt.name(s);
    setText(row.name, label);
    setText(row.state, s.status);
    row.state.className = 'state state-' + s.status;
    const p = fmt.percent(s);
    if (p === null) {
      row.bar.removeAttribute('value');
    } else {
      row.bar.value = p;
    }
    row.bar.setAttribute('aria-label', `Progress of ${label}`);
    setText(row.pct, p === null ? fmt.bytes(s.completedLength) : `${p.toFixed(0)}%`);
    setText(row.speed, s.status === 'active' ? fmt.speed(s.downloadSpeed) : '');
    const left = fmt.timeLeft(s);
    setText(row.left, left ? `${left} left` : '');
    const c = Number(s.connections) || 0;
    setText(row.conns, s.status === 'active' ? `${c} connection${c === 1 ? '' : 's'}` : '');
    if (s.errorMessage) {
      row.state.title = s.errorMessage;
    }
    const focused = document.activeElement;
    row.pause.disabled = !(s.status === 'active' || s.status === 'waiting');
    row.resume.disabled = s.status !== 'paused';
    // a keyboard user who paused stays on the row: focus goes to the button that undoes it
    if ((focused === row.pause || focused === row.resume) && focused.disabled) {
      const other = focused === row.pause ? row.resume : row.pause;
      (other.disabled ? row.remove : other).focus();
    }
  }
}

function button(text, className) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  if (className) {
    b.className = className;
  }
  return b;
}

function span(className) {
  const s = document.createElement('span');
  s.className = className;
  return s;
}

/** Sets text only when it changed: no needless layout, and screen readers are not re-told. */
export function setText(el, text) {
  if (el.textContent !== text) {
    el.textContent = text;
  }
}
