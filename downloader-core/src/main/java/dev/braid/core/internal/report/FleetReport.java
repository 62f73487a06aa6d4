package dev.braid.core.internal.report;

import dev.braid.core.Fleet;
import dev.braid.store.HostGrant;
import dev.braid.store.QueueEntry;
import dev.braid.store.StateStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The workers sharing a store, from one census of its active entries (their owners and
 * heartbeats) and the host grants held; the store's own rule judges whether each owner is alive.
 */
public final class FleetReport {
  private FleetReport() {}

  /**
   * {@return the fleet as the store shows it now}
   *
   * @param store the store the engine shares
   * @param self this engine's worker name
   */
  public static Fleet read(StateStore store, String self) {
    Map<String, Drives> byOwner = new TreeMap<>();
    byOwner.put(self, new Drives(true));
    for (QueueEntry e : store.queue().census().active()) {
      if (e.owner() == null) {
        continue;
      }
      Drives d = byOwner.computeIfAbsent(e.owner(), o -> new Drives(false));
      d.alive |= e.owner().equals(self) || store.queue().held(e);
      d.heartbeat = Math.max(d.heartbeat, e.heartbeatMillis());
      d.downloads.add(e.id());
    }
    List<Fleet.Grant> grants = new ArrayList<>();
    for (HostGrant g : store.grants().held()) {
      // a grant is listed only while its lease runs: its holder is alive
      byOwner.computeIfAbsent(g.owner(), o -> new Drives(false)).alive = true;
      grants.add(new Fleet.Grant(g.host(), g.owner(), g.connections()));
    }
    List<Fleet.Worker> workers = new ArrayList<>();
    workers.add(byOwner.remove(self).worker(self));
    byOwner.forEach((name, d) -> workers.add(d.worker(name)));
    return new Fleet(self, workers, grants);
  }

  /** What one owner drives, gathered from the census. */
  private static final class Drives {
    boolean alive;
    long heartbeat;
    final List<Long> downloads = new ArrayList<>();

    Drives(boolean alive) {
      this.alive = alive;
    }

    Fleet.Worker worker(String name) {
      return new Fleet.Worker(name, alive, heartbeat > 0 ? Instant.ofEpochMilli(heartbeat) : null, downloads);
    }
  }
}
