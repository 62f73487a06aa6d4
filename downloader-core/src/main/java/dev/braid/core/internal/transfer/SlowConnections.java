package dev.braid.core.internal.transfer;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Spots connections that hold the download back, every request included (the download's first,
 * the probe's body, too). A busy worker is watched from the tick it is first seen streaming; every
 * {@link #WINDOW_NANOS} its rate over the time watched is judged against the median rate of the
 * busy workers ({@link #PEERS} or more, else the median of the last window that had them):
 * <ul>
 *   <li>under {@link #FRACTION} of a median measured in the same window: replaced at once. Other
 *       connections to the same server are fast right now, so this one is not waiting out a pause
 *       of the server; waiting for more windows let a connection slow from its first request hold
 *       its range while every other range was done (96 MiB: 7.3 s against 1.5 s);
 *   <li>moved nothing, less than the lowest speed (a trickle, even on the only connection), or
 *       under the fraction of a remembered median: replaced after {@link #STRIKES} such windows in
 *       a row, as these may be the whole server pausing.
 * </ul>
 * A replaced connection continues from the same byte on a fresh one, so a stalled or throttled
 * connection costs about a second rather than the read timeout or the tail of the download. A
 * worker whose replacement brought no byte is not replaced again: the read timeout and the retry
 * budget decide about a server that is silent everywhere. Driver thread only.
 */
final class SlowConnections {
  static final long WINDOW_NANOS = 1_000_000_000L;
  /** A worker watched this long is judged; the ticks (every 200 ms) rarely meet a window's start exactly. */
  static final long JUDGE_NANOS = 750_000_000L;
  /** A worker watched this long counts for the median; its time to first bytes is behind it. */
  static final long MEDIAN_NANOS = 400_000_000L;
  static final double FRACTION = 0.2;
  static final int STRIKES = 3;
  static final int PEERS = 3;

  /** A connection to replace and why, for the download's record of changes. */
  record Verdict(Worker worker, String why) {}

  /** Where the watch of a worker began: its streamed bytes then, and when. */
  private record Mark(long bytes, long at) {}

  private final Map<Worker, Mark> marks = new HashMap<>();
  private final Map<Worker, Integer> strikes = new HashMap<>();
  private final Map<Worker, Long> replacedAt = new HashMap<>();
  private final long lowestSpeed;
  private long windowStart;
  /** The median rate of the last window with {@link #PEERS} busy workers, bytes per second; 0 before one. */
  private double remembered;

  /** @param lowestSpeed bytes per second under which a connection is slow whatever the others do; 0 for none */
  SlowConnections(long now, long lowestSpeed) {
    this.windowStart = now;
    this.lowestSpeed = lowestSpeed;
  }

  /** Called every tick; returns the workers whose connection should be replaced now. */
  List<Verdict> check(long now, Collection<Worker> workers) {
    marks.keySet().retainAll(workers);
    for (Worker w : workers) {
      if (!w.busy()) {
        // a worker between requests or waiting to retry is not slow: its watch starts again
        marks.remove(w);
      } else {
        marks.computeIfAbsent(w, k -> new Mark(k.streamed(), now));
      }
    }
    if (now - windowStart < WINDOW_NANOS) {
      return List.of();
    }
    windowStart = now;
    replacedAt.keySet().retainAll(workers);
    strikes.keySet().retainAll(marks.keySet());
    Map<Worker, Double> judged = new HashMap<>();
    List<Double> peers = new ArrayList<>();
    marks.forEach((w, m) -> {
      long watched = now - m.at();
      double rate = (w.streamed() - m.bytes()) * 1e9 / Math.max(1, watched);
      if (watched >= MEDIAN_NANOS) {
        peers.add(rate);
      }
      if (watched >= JUDGE_NANOS) {
        judged.put(w, rate);
      }
    });
    boolean live = peers.size() >= PEERS;
    if (live) {
      double[] sorted = peers.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      remembered = sorted[sorted.length / 2];
    }
    double median = remembered;
    List<Verdict> slow = new ArrayList<>();
    judged.forEach((w, rate) -> {
      marks.put(w, new Mark(w.streamed(), now));
      boolean belowPeers = rate < median * FRACTION;
      if (!belowPeers && rate > 0 && rate >= lowestSpeed) {
        strikes.remove(w);
        return;
      }
      int n = strikes.merge(w, 1, Integer::sum);
      Long lastReplacement = replacedAt.get(w);
      boolean brought = lastReplacement == null || lastReplacement != w.streamed();
      if (brought && (live && belowPeers || n >= STRIKES)) {
        strikes.remove(w);
        replacedAt.put(w, w.streamed());
        slow.add(new Verdict(w, live && belowPeers
            ? String.format(Locale.ROOT, "%s/s against a median of %s/s", kib(rate), kib(median))
            : rate == 0 ? "nothing for " + n + " s" : String.format(Locale.ROOT, "%s/s for %d s", kib(rate), n)));
      }
    });
    return slow;
  }

  private static String kib(double bytesPerSecond) {
    return String.format(Locale.ROOT, "%.0f KiB", bytesPerSecond / 1024);
  }
}
