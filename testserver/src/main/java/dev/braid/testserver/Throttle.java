package dev.braid.testserver;

/**
 * A per-connection token bucket. It holds at most 1/{@value #BURST_DIVISOR} s of tokens (or one
 * piece, see {@link #acquire}), so pacing is smooth from the first byte rather than allowing a
 * one-second burst.
 */
final class Throttle {
  private static final long BURST_DIVISOR = 50;
  private static final long MAX_SLEEP_MILLIS = 10;

  private double tokens;
  private long refilledAt = System.nanoTime();

  /** The largest write to make at this rate, so that each write waits for at most one bucketful. */
  static int pieceSize(long bytesPerSecond, int max) {
    return (int) Math.max(1, Math.min(max, bytesPerSecond / BURST_DIVISOR));
  }

  /**
   * Blocks until {@code n} bytes may be sent at {@code bytesPerSecond}, sleeping in short steps;
   * {@code noBurst}: the bucket holds just {@code n}, so that pieces go out evenly spaced.
   */
  void acquire(int n, long bytesPerSecond, boolean noBurst) throws InterruptedException {
    double capacity = noBurst ? n : Math.max(n, (double) bytesPerSecond / BURST_DIVISOR);
    while (true) {
      long now = System.nanoTime();
      tokens = Math.min(capacity, tokens + (now - refilledAt) * (double) bytesPerSecond / 1e9);
      refilledAt = now;
      if (tokens >= n) {
        tokens -= n;
        return;
      }
      long waitMillis = (long) Math.ceil((n - tokens) * 1000.0 / bytesPerSecond);
      // Oversleeping is harmless: the tokens it earns (up to the bucket size) are spent next.
      Thread.sleep(Math.max(1, Math.min(MAX_SLEEP_MILLIS, waitMillis)));
    }
  }
}
