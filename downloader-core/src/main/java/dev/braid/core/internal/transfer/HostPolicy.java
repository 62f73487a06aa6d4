package dev.braid.core.internal.transfer;

import dev.braid.store.HostMemory;
import java.time.Duration;
import java.util.Optional;

/**
 * Where the connection controller starts for a host, and its cap, from what the store remembers.
 * A limit the server showed by refusing connections is respected, but it decays: one more
 * connection is allowed for every {@link #DECAY_STEP} since it was learned, and after
 * {@link #FORGET} it is forgotten, so a host that was busy once is tried again later.
 * {@code remembered} says the start comes from that memory: an earlier download from the host
 * ran ranges on several connections (a small file, on one, is not remembered).
 */
record HostPolicy(int start, int cap, String why, boolean remembered) {
  static final int DEFAULT_START = 4;
  /** From this round trip on a new host starts with twice, from {@link #VERY_LONG_PATH_NANOS} four times the default. */
  static final long LONG_PATH_NANOS = 25_000_000L;
  static final long VERY_LONG_PATH_NANOS = 75_000_000L;
  static final Duration DECAY_STEP = Duration.ofHours(6);
  static final Duration FORGET = Duration.ofDays(7);

  /**
   * The policy for a host whose path has a round trip of {@code rttNanos} (0: unknown). A new
   * host on a long path starts with more connections, since one TCP connection's pace falls with
   * the round trip (and with loss), and ramping up from {@link #DEFAULT_START} costs round trips too.
   */
  static HostPolicy of(Optional<HostMemory> memory, int maxConnections, long nowMillis, long rttNanos) {
    int fresh = Math.min(startFor(rttNanos), maxConnections);
    if (memory.isEmpty()) {
      return new HostPolicy(fresh, maxConnections, rttNanos >= LONG_PATH_NANOS
          ? "start: new host, " + rttNanos / 1_000_000 + " ms round trip" : "start: new host", false);
    }
    HostMemory m = memory.get();
    long age = Math.max(0, nowMillis - m.updatedMillis());
    if (age > FORGET.toMillis()) {
      return new HostPolicy(fresh, maxConnections, "start: host memory older than " + FORGET.toDays() + " days", false);
    }
    int cap = maxConnections;
    if (m.limit() > 0) {
      cap = (int) Math.min(maxConnections, m.limit() + age / DECAY_STEP.toMillis());
    }
    int start = Math.max(1, Math.min(m.connections(), cap));
    String why = m.limit() > 0
        ? "start: remembered " + m.connections() + " (server refused more than " + m.limit() + ", cap now " + cap + ")"
        : "start: remembered " + m.connections() + " connections for this host";
    return new HostPolicy(start, cap, why, true);
  }

  private static int startFor(long rttNanos) {
    return rttNanos >= VERY_LONG_PATH_NANOS ? 4 * DEFAULT_START : rttNanos >= LONG_PATH_NANOS ? 2 * DEFAULT_START : DEFAULT_START;
  }
}
