package dev.braid.core.schedule;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Spots connections that hold the download back: every window, a busy worker gets a strike when it
 * moved nothing (a stall), less than the lowest speed (a trickle, even on the only connection), or,
 * when at least three are busy, less than {@link #FRACTION} of their median (a slow path). {@link #STRIKES} in a row and its connection is
 * replaced, so a stalled or throttled connection costs seconds rather than the read timeout or
 * the tail of the download. A worker whose replacement brought no byte is not replaced again:
 * the read timeout and the retry budget decide about a server that is silent everywhere.
 * Driver thread only.
 */
final class SlowConnections {
  static final long WINDOW_NANOS = 1_000_000_000L;
  static final double FRACTION = 0.2;
  static final int STRIKES = 3;

  private final Map<Worker, Long> lastBytes = new HashMap<>();
  private final Map<Worker, Integer> strikes = new HashMap<>();
  private final Map<Worker, Long> replacedAt = new HashMap<>();
  private final long lowestSpeed;
  private long windowStart;

  /** @param lowestSpeed bytes per second under which a connection is slow whatever the others do; 0 for none */
  SlowConnections(long now, long lowestSpeed) {
    this.windowStart = now;
    this.lowestSpeed = lowestSpeed;
  }

  /** Returns the workers whose connection should be replaced now. */
  List<Worker> check(long now, Collection<Worker> workers) {
    if (now - windowStart < WINDOW_NANOS) {
      return List.of();
    }
    windowStart = now;
    Map<Worker, Long> moved = new HashMap<>();
    for (Worker w : workers) {
      long bytes = w.streamed();
      Long before = lastBytes.put(w, bytes);
      if (before != null && w.busy()) {
        moved.put(w, bytes - before);
      }
    }
    lastBytes.keySet().retainAll(workers);
    replacedAt.keySet().retainAll(workers);
    strikes.keySet().retainAll(moved.keySet());
    long[] sorted = moved.values().stream().mapToLong(Long::longValue).sorted().toArray();
    long median = sorted.length >= 3 ? sorted[sorted.length / 2] : 0;
    List<Worker> slow = new ArrayList<>();
    moved.forEach((w, bytes) -> {
      if (bytes == 0 || bytes < lowestSpeed * WINDOW_NANOS / 1_000_000_000L || bytes < median * FRACTION) {
        int n = strikes.merge(w, 1, Integer::sum);
        Long lastReplacement = replacedAt.get(w);
        if (n >= STRIKES && (lastReplacement == null || lastReplacement != w.streamed())) {
          strikes.remove(w);
          replacedAt.put(w, w.streamed());
          slow.add(w);
        }
      } else {
        strikes.remove(w);
      }
    });
    return slow;
  }
}
