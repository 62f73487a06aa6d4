package dev.braid.core.internal.limit;

import dev.braid.core.time.Ticker;
import java.util.concurrent.TimeUnit;

/**
 * A rate limit in bytes per second that readers ask before each read. Its burst is a tenth of a
 * second of the rate, so a limit holds over any window longer than that; grants are small, so
 * readers sharing one bucket share it about evenly. The rate can change at any time
 * (0 = unlimited). Thread-safe; a waiting reader holds no lock.
 */
public final class TokenBucket {
  private static final double BURST_SECONDS = 0.1;
  /** Grants never go below this, so a low rate does not turn into one syscall per few bytes. */
  private static final int MIN_GRANT = 4096;

  private final Ticker ticker;
  private long rate;
  private double tokens;
  private long refilledNanos;

  /** A bucket of {@code bytesPerSecond} (0: unlimited) that refills by {@code ticker}'s time. */
  public TokenBucket(long bytesPerSecond, Ticker ticker) {
    this.ticker = ticker;
    this.refilledNanos = ticker.read();
    setRate(bytesPerSecond);
  }

  /** Changes the rate; 0 lifts the limit. Waiting readers see it at their next check. */
  public synchronized void setRate(long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("a rate limit cannot be negative");
    }
    refill(ticker.read());
    rate = bytesPerSecond;
    tokens = Math.min(tokens, burst());
    notifyAll();
  }

  public synchronized long rate() {
    return rate;
  }

  /**
   * Waits until some bytes may be read and takes them: at most {@code max}, at least one.
   * On interrupt, returns at once with the interrupt flag set (the caller's read then decides).
   */
  public synchronized int acquire(int max) {
    while (true) {
      if (rate == 0) {
        return max;
      }
      long now = ticker.read();
      refill(now);
      int want = (int) Math.min(max, burst());
      if (tokens >= want) {
        tokens -= want;
        return want;
      }
      long waitNanos = (long) ((want - tokens) * 1e9 / rate);
      try {
        TimeUnit.NANOSECONDS.timedWait(this, Math.max(1_000_000, waitNanos));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return max;
      }
    }
  }

  /** Gives back bytes taken but not read (a read returned fewer than granted). */
  public synchronized void refund(int unused) {
    if (rate > 0 && unused > 0) {
      tokens = Math.min(burst(), tokens + unused);
      notifyAll();
    }
  }

  private double burst() {
    return Math.max(MIN_GRANT, rate * BURST_SECONDS);
  }

  private void refill(long now) {
    if (rate > 0) {
      tokens = Math.min(burst(), tokens + (now - refilledNanos) * rate / 1e9);
    }
    refilledNanos = now;
  }
}
