package dev.braid.gui;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The hand-off between Braid's threads and the FX thread. Any thread offers snapshots as often as
 * it likes; only the latest per download is kept, and the FX thread drains them a few times a
 * second. So a download that reports on every buffer costs the UI one update per frame at most,
 * and the FX event queue never fills with stale runnables.
 */
final class SnapshotCoalescer {
  private final Map<Long, DownloadSnapshot> pending = new ConcurrentHashMap<>();
  private final Set<Long> removed = ConcurrentHashMap.newKeySet();

  /** Any thread: the latest state of a download (replacing one not yet drained). */
  void offer(DownloadSnapshot s) {
    removed.remove(s.id());
    pending.put(s.id(), s);
  }

  /** Any thread: the download left the store. */
  void remove(long id) {
    pending.remove(id);
    removed.add(id);
  }

  /** What arrived since the last drain; removals win over updates offered before them. */
  Batch drain() {
    List<DownloadSnapshot> updates = new ArrayList<>(pending.size());
    // remove key by key so an offer racing with the drain is kept for the next one, not lost
    for (Long id : List.copyOf(pending.keySet())) {
      DownloadSnapshot s = pending.remove(id);
      if (s != null) {
        updates.add(s);
      }
    }
    Set<Long> gone = new HashSet<>();
    for (Long id : List.copyOf(removed)) {
      if (removed.remove(id)) {
        gone.add(id);
      }
    }
    updates.removeIf(s -> gone.contains(s.id()));
    return new Batch(updates, gone);
  }

  /** One drain: updated downloads and removed ids. */
  record Batch(List<DownloadSnapshot> updates, Set<Long> removed) {
    boolean isEmpty() {
      return updates.isEmpty() && removed.isEmpty();
    }
  }
}
