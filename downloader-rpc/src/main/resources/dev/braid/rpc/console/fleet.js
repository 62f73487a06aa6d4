// The workers sharing the daemon's store (braid.fleet): on PostgreSQL the fleet of daemons, each
// with the downloads it drives and the connections it holds per host; on SQLite this daemon and
// any process beside it. Asked only while its panel is open, with the queue's refresh.
import * as fmt from './format.js';
import { fillRows } from './table.js';

export class FleetView {
  #panel;
  #workers;
  #grants;
  #noGrants;

  /** opened: called when the panel opens, so that its first answer comes at once. */
  constructor(doc, opened) {
    this.#panel = doc.getElementById('fleet-panel');
    this.#workers = doc.getElementById('workers').tBodies[0];
    this.#grants = doc.getElementById('grants').tBodies[0];
    this.#noGrants = doc.getElementById('grants-empty');
    this.#panel.addEventListener('toggle', () => this.#panel.open && opened());
  }

  /** The call for the refresh's multicall, or null while the panel is closed. */
  call() {
    return this.#panel.open ? ['braid.fleet'] : null;
  }

  /** Shows braid.fleet's answer. */
  show(fleet, now = Date.now()) {
    fillRows(this.#workers, fleet.workers.map((w) => [
      fmt.worker(w.name, fleet.self),
      w.alive ? 'running' : 'gone (its downloads wait to be taken over)',
      fmt.plural(w.gids.length, 'download'),
      w.heartbeat === null ? '—' : fmt.ago(w.heartbeat, now),
    ]));
    fillRows(this.#grants, fleet.grants.map((g) => [g.host, fmt.worker(g.worker, fleet.self), String(g.connections)]));
    this.#noGrants.hidden = fleet.grants.length > 0;
  }
}
