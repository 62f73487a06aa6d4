package dev.braid.core.internal.metrics;

import java.util.HashSet;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Bytes received by all downloads of one {@code Braid}, without a shared counter on the data
 * path: the sum of the running downloads' own counters plus what finished ones brought.
 * Monotonic: a download moves from running to finished under the same lock a reading takes, and
 * only once its counter is final.
 */
public final class BytesTotal implements LongSupplier {
  private final Set<LongSupplier> running = new HashSet<>();
  private long finished;

  /** Counts {@code bytes} from now on; call {@link #finished} once it no longer changes. */
  public synchronized void started(LongSupplier bytes) {
    running.add(bytes);
  }

  /** {@code bytes} is final: its count moves into the finished total. */
  public synchronized void finished(LongSupplier bytes) {
    if (running.remove(bytes)) {
      finished += bytes.getAsLong();
    }
  }

  @Override
  public synchronized long getAsLong() {
    long sum = finished;
    for (LongSupplier s : running) {
      sum += s.getAsLong();
    }
    return sum;
  }
}
