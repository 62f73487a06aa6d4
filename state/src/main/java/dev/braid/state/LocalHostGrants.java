package dev.braid.state;

import dev.braid.store.HostGrant;
import dev.braid.store.HostGrants;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The SQLite store's connection grants: kept in this process's memory, so a cap holds across
 * the downloads of one process and each process sharing a database file has its own (as the
 * engine's per-host budget always had). Nothing to lease: a grant ends with its process, which
 * is what the lease of a server database's grant stands in for. Thread-safe (its own lock).
 */
final class LocalHostGrants implements HostGrants {
  /** Grants held, by host, then by owner. */
  private final Map<String, Map<String, Integer>> held = new HashMap<>();

  @Override
  public synchronized boolean acquire(String host, String owner, int max) {
    if (max < 1) {
      throw new IllegalArgumentException("max must be at least 1, not " + max);
    }
    Map<String, Integer> owners = held.computeIfAbsent(host, h -> new HashMap<>());
    int total = owners.values().stream().mapToInt(Integer::intValue).sum();
    if (total >= max) {
      return false;
    }
    owners.merge(owner, 1, Integer::sum);
    return true;
  }

  @Override
  public synchronized void release(String host, String owner) {
    Map<String, Integer> owners = held.get(host);
    if (owners == null || owners.computeIfPresent(owner, (o, n) -> n > 1 ? n - 1 : null) != null) {
      return;
    }
    if (owners.isEmpty()) {
      held.remove(host);
    }
  }

  @Override
  public synchronized List<HostGrant> held() {
    List<HostGrant> all = new ArrayList<>();
    new TreeMap<>(held).forEach((host, owners) ->
        new TreeMap<>(owners).forEach((owner, n) -> all.add(new HostGrant(host, owner, n))));
    return all;
  }

  @Override
  public void renew(String owner) {
    // held in memory, grants last exactly as long as their process: there is no lease to renew
  }
}
