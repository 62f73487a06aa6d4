// The selected download: its facts, its segment map (while it runs, its real segments from
// braid.tellSegments; else aria2's piece bitfield) and its speed graph (the speeds sampled at each
// refresh, the last two minutes); from braid.tellEntry, its mirrors, its run's notes and what the
// engine measured of it.
import * as fmt from './format.js';
import { setText } from './queue.js';

export const DETAIL_KEYS = ['gid', 'status', 'totalLength', 'completedLength', 'downloadSpeed', 'connections', 'files',
  'dir', 'errorMessage', 'bitfield', 'numPieces', 'pieceLength', 'braidNextTry', 'braidLastError'];
const SAMPLES = 120;

export class DetailsView {
  #section;
  #title;
  #facts;
  #map;
  #mapText;
  #graph;
  #graphText;
  #speeds = new Map();
  #mirrors;
  #notes;
  #measured;

  constructor(doc) {
    this.#mirrors = doc.getElementById('mirrors');
    this.#notes = doc.getElementById('notes');
    this.#measured = doc.getElementById('measured');
    this.#section = doc.getElementById('details');
    this.#title = doc.getElementById('details-title');
    this.#facts = doc.getElementById('facts');
    this.#map = doc.getElementById('segment-map');
    this.#mapText = doc.getElementById('map-text');
    this.#graph = doc.getElementById('speed-graph');
    this.#graphText = doc.getElementById('graph-text');
  }

  /** Keeps one speed sample per refresh for each download seen, the last SAMPLES of them. */
  sample(statuses) {
    for (const s of statuses) {
      let list = this.#speeds.get(s.gid);
      if (!list) {
        list = [];
        this.#speeds.set(s.gid, list);
      }
      list.push(s.status === 'active' ? Number(s.downloadSpeed) || 0 : 0);
      if (list.length > SAMPLES) {
        list.shift();
      }
    }
  }

  hide() {
    this.#section.hidden = true;
  }

  /**
   * Shows status s (tellStatus with DETAIL_KEYS), its segments (braid.tellSegments, empty when it
   * does not run) and its entry (braid.tellEntry, for mirrors, notes and measurements).
   */
  show(s, segments, entry) {
    this.#section.hidden = false;
    setText(this.#title, fmt.name(s));
    this.#showFacts(s);
    const e = entry || {};
    lines(this.#mirrors, e.mirrors || [], 'none');
    lines(this.#notes, e.notes || [], 'none');
    lines(this.#measured, fmt.measured(e), 'nothing yet: the engine measures a download while it runs');
    this.#drawMap(s, segments || []);
    this.#drawGraph(this.#speeds.get(s.gid) || []);
  }

  #showFacts(s) {
    const file = (s.files && s.files[0]) || {};
    const uris = (file.uris || []).map((u) => u.uri);
    const facts = [
      ['State', s.status],
      ['Size', Number(s.totalLength) > 0 ? fmt.bytes(s.totalLength) : 'unknown'],
      ['Done', fmt.bytes(s.completedLength)],
      ['Speed', s.status === 'active' ? fmt.speed(s.downloadSpeed) : ''],
      ['Connections', s.status === 'active' ? String(s.connections) : ''],
      ['File', file.path || ''],
      ['Folder', s.dir || ''],
      [uris.length > 1 ? 'URLs' : 'URL', uris.join('\n')],
      ['Next try', s.braidNextTry || ''],
      ['Error', s.errorMessage || s.braidLastError || ''],
    ].filter(([, v]) => v);
    const text = facts.map(([k, v]) => k + v).join('|');
    if (this.#facts.dataset.text === text) {
      return;
    }
    this.#facts.dataset.text = text;
    this.#facts.replaceChildren(...facts.flatMap(([k, v]) => {
      const dt = document.createElement('dt');
      dt.textContent = k;
      const dd = document.createElement('dd');
      for (const [i, line] of v.split('\n').entries()) {
        if (i > 0) {
          dd.append(document.createElement('br'));
        }
        dd.append(line);
      }
      return [dt, dd];
    }));
  }

  #drawMap(s, segments) {
    const { ctx, width, height, scale } = canvas(this.#map);
    const colors = palette(this.#map);
    ctx.fillStyle = colors.track;
    ctx.fillRect(0, 0, width, height);
    const n = Number(s.numPieces) || 0;
    const length = Number(s.totalLength);
    if (segments.length > 0 && length > 0) {
      // each segment's done part from its start; a running one's rest lighter; a line between segments
      const x = (offset) => (offset / length) * width;
      for (const g of segments) {
        const start = Number(g.start);
        const end = Number(g.end) < 0 ? length : Number(g.end);
        const done = Number(g.completedLength);
        if (g.active === 'true') {
          ctx.fillStyle = colors.fill;
          ctx.fillRect(x(start), 0, x(end) - x(start), height);
        }
        ctx.fillStyle = colors.done;
        ctx.fillRect(x(start), 0, Math.max(done > 0 ? 1 : 0, x(start + done) - x(start)), height);
        ctx.fillStyle = colors.line;
        ctx.fillRect(x(start), 0, scale, height);
      }
      const running = segments.filter((g) => g.active === 'true').length;
      setText(this.#mapText, `${fmt.plural(segments.length, 'segment')}, ${running} downloading`);
    } else if (s.bitfield && n > 0) {
      const done = fmt.pieces(s.bitfield, n);
      // each column of pixels shows its share of pieces: one piece may span many columns, or many pieces one
      ctx.fillStyle = colors.done;
      for (let x = 0; x < width; x++) {
        const first = Math.floor((x * n) / width);
        const last = Math.max(first + 1, Math.floor(((x + 1) * n) / width));
        let count = 0;
        for (let i = first; i < last; i++) {
          count += done[i] ? 1 : 0;
        }
        if (count > 0) {
          ctx.globalAlpha = count / (last - first);
          ctx.fillRect(x, 0, 1, height);
        }
      }
      ctx.globalAlpha = 1;
      const complete = done.filter(Boolean).length;
      setText(this.#mapText, `${complete} of ${n} pieces of ${fmt.bytes(s.pieceLength)} complete`);
    } else {
      setText(this.#mapText, s.status === 'complete' ? 'complete' : 'no segments yet');
    }
  }

  #drawGraph(samples) {
    const { ctx, width, height, scale } = canvas(this.#graph);
    const colors = palette(this.#graph);
    ctx.fillStyle = colors.track;
    ctx.fillRect(0, 0, width, height);
    const peak = Math.max(1, ...samples);
    const step = width / (SAMPLES - 1);
    const x0 = width - (samples.length - 1) * step;
    const y = (v) => height - 2 * scale - (v / peak) * (height - 18 * scale);
    ctx.strokeStyle = colors.line;
    ctx.lineWidth = scale;
    ctx.beginPath();
    ctx.moveTo(0, height - 2 * scale);
    ctx.lineTo(width, height - 2 * scale);
    ctx.stroke();
    if (samples.length > 0) {
      ctx.beginPath();
      ctx.moveTo(x0, height);
      samples.forEach((v, i) => ctx.lineTo(x0 + i * step, y(v)));
      ctx.lineTo(x0 + (samples.length - 1) * step, height);
      ctx.closePath();
      ctx.fillStyle = colors.fill;
      ctx.fill();
      ctx.strokeStyle = colors.accent;
      ctx.lineWidth = 2 * scale;
      ctx.beginPath();
      samples.forEach((v, i) => (i === 0 ? ctx.moveTo(x0, y(v)) : ctx.lineTo(x0 + i * step, y(v))));
      ctx.stroke();
    }
    ctx.fillStyle = colors.text;
    ctx.font = `${12 * scale}px system-ui, sans-serif`;
    ctx.fillText(`peak ${fmt.speed(peak === 1 ? 0 : peak)}`, 4 * scale, 13 * scale);
    const now = samples.length ? samples[samples.length - 1] : 0;
    setText(this.#graphText, `now ${fmt.speed(now)}, peak ${fmt.speed(peak === 1 ? 0 : peak)} over the last ${samples.length} s`);
  }
}

/** Shows texts as the list's items (or one item saying `none` when there are none), redrawn only when they change. */
function lines(list, texts, none) {
  const shown = texts.length ? texts : [none];
  const key = shown.join('\n');
  if (list.dataset.text === key) {
    return;
  }
  list.dataset.text = key;
  list.replaceChildren(...shown.map((t) => {
    const li = document.createElement('li');
    li.textContent = t;
    return li;
  }));
}

/** The canvas's 2D context, its drawing buffer sized to its CSS size on this screen. */
function canvas(el) {
  const scale = window.devicePixelRatio || 1;
  const width = Math.max(1, Math.round(el.clientWidth * scale));
  const height = Math.max(1, Math.round(el.clientHeight * scale));
  if (el.width !== width || el.height !== height) {
    el.width = width;
    el.height = height;
  }
  return { ctx: el.getContext('2d'), width, height, scale };
}

/** The colours of the style sheet (light or dark). */
function palette(el) {
  const css = getComputedStyle(el);
  const v = (name) => css.getPropertyValue(name).trim();
  return { track: v('--track'), done: v('--done'), accent: v('--accent'), line: v('--line'), text: v('--muted'),
    fill: v('--accent') + '40' };
}
