// What the engine remembers per host (braid.hosts): the connections each tolerated and settled on,
// the speed reached, what each HTTP version delivered; the next download there starts from it.
// Asked only while its panel is open, with the queue's refresh.
import * as fmt from './format.js';
import { fillRows } from './table.js';

/** The hosts shown, most recently learned first. */
const LIMIT = 50;

export class HostsView {
  #panel;
  #body;
  #empty;

  /** opened: called when the panel opens, so that its first answer comes at once. */
  constructor(doc, opened) {
    this.#panel = doc.getElementById('hosts-panel');
    this.#body = doc.getElementById('hosts').tBodies[0];
    this.#empty = doc.getElementById('hosts-empty');
    this.#panel.addEventListener('toggle', () => this.#panel.open && opened());
  }

  /** The call for the refresh's multicall, or null while the panel is closed. */
  call() {
    return this.#panel.open ? ['braid.hosts', LIMIT] : null;
  }

  /** Shows braid.hosts' answer. */
  show(hosts, now = Date.now()) {
    fillRows(this.#body, hosts.map((h) => [
      h.http2 ? `${h.host} (HTTP/2)` : h.host,
      fmt.hostConnections(h),
      h.bytesPerSecond > 0 ? fmt.speed(h.bytesPerSecond) : 'not measured',
      h.protocols.map((p) => (p.offered ? `${p.name} ${p.bytesPerSecond > 0 ? fmt.speed(p.bytesPerSecond) : 'offered'}`
        : `${p.name} not offered`)).join(', ') || '—',
      fmt.ago(h.updated, now),
    ]));
    this.#empty.hidden = hosts.length > 0;
  }
}
