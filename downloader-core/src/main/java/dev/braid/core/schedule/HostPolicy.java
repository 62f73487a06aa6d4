package dev.braid.core.schedule;

import dev.braid.state.HostMemory;
import java.time.Duration;
import java.util.Optional;

/**
 * Where the connection controller starts for a host, and its cap, from what the store remembers.
 * A limit the server showed by refusing connections is respected, but it decays: one more
 * connection is allowed for every {@link #DECAY_STEP} since it was learned, and after
 * {@link #FORGET} it is forgotten, so a host that was busy once is tried again later.
 */
record HostPolicy(int start, int cap, String why) {
  static final int DEFAULT_START = 4;
  static final Duration DECAY_STEP = Duration.ofHours(6);
  static final Duration FORGET = Duration.ofDays(7);

  static HostPolicy of(Optional<HostMemory> memory, int maxConnections, long nowMillis) {
    int fresh = Math.min(DEFAULT_START, maxConnections);
    if (memory.isEmpty()) {
      return new HostPolicy(fresh, maxConnections, "start: new host");
    }
    HostMemory m = memory.get();
    long age = Math.max(0, nowMillis - m.updatedMillis());
    if (age > FORGET.toMillis()) {
      return new HostPolicy(fresh, maxConnections, "start: host memory older than " + FORGET.toDays() + " days");
    }
    int cap = maxConnections;
    if (m.limit() > 0) {
      cap = (int) Math.min(maxConnections, m.limit() + age / DECAY_STEP.toMillis());
    }
    int start = Math.max(1, Math.min(m.connections(), cap));
    String why = m.limit() > 0
        ? "start: remembered " + m.connections() + " (server refused more than " + m.limit() + ", cap now " + cap + ")"
        : "start: remembered " + m.connections() + " connections for this host";
    return new HostPolicy(start, cap, why);
  }
}
