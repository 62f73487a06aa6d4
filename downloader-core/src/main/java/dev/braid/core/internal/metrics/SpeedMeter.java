package dev.braid.core.internal.metrics;

import java.util.ArrayDeque;

/**
 * Throughput over the last few seconds, from (time, total bytes) samples. One thread samples (the
 * download's driver); any thread may read. A window of seconds smooths the bursts of a single
 * buffer and the pauses of a reconnect, while still following a real change within the window.
 */
public final class SpeedMeter {
  private final long windowNanos;
  private final ArrayDeque<long[]> samples = new ArrayDeque<>();
  private volatile double bytesPerSecond;
  private volatile double peak;

  public SpeedMeter(long windowMillis) {
    this.windowNanos = windowMillis * 1_000_000L;
  }

  /** Records that {@code totalBytes} had arrived at {@code nanoTime}. */
  public synchronized void sample(long nanoTime, long totalBytes) {
    samples.addLast(new long[] {nanoTime, totalBytes});
    while (samples.size() > 2 && nanoTime - samples.peekFirst()[0] > windowNanos) {
      samples.removeFirst();
    }
    long[] first = samples.peekFirst();
    long elapsed = nanoTime - first[0];
    bytesPerSecond = elapsed <= 0 ? 0 : (totalBytes - first[1]) * 1e9 / elapsed;
    if (elapsed >= windowNanos / 2) {
      peak = Math.max(peak, bytesPerSecond);
    }
  }

  /**
   * The rate a download reached: the highest windowed rate seen over at least half a window (so
   * one burst does not count), or, for a download too short to fill half a window, its rate over
   * all its samples (none has left the window yet); 0 before two samples.
   */
  public double reachedBytesPerSecond() {
    return peak > 0 ? peak : bytesPerSecond;
  }

  public double bytesPerSecond() {
    return bytesPerSecond;
  }
}
