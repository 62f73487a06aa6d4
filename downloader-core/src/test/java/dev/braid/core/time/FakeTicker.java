package dev.braid.core.time;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A ticker for tests: the system's, plus whatever the test {@link #advance advanced} it by. Time
 * still passes, so a whole {@code Braid} runs on it as on the system's (its loops, waits and
 * meters see time move), and a test jumps over a TTL or a backoff instead of sleeping through it.
 * Thread-safe: the offset is an atomic the engine's threads read.
 */
public final class FakeTicker implements Ticker {
  private final AtomicLong offset = new AtomicLong();

  @Override
  public long read() {
    return System.nanoTime() + offset.get();
  }

  /** Moves this ticker {@code d} forward at once. */
  public void advance(Duration d) {
    offset.addAndGet(d.toNanos());
  }
}
