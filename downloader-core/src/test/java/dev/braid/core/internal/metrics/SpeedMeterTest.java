package dev.braid.core.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The rate the host memory keeps of a download: its peak over half a window, or a short one's average. */
class SpeedMeterTest {
  private static final long MS = 1_000_000L;

  @Test
  void aDownloadShorterThanHalfAWindowReachedItsAverageRate() {
    SpeedMeter m = new SpeedMeter(5_000);
    m.sample(0, 0);
    assertEquals(0, m.reachedBytesPerSecond(), "one sample is no rate");
    m.sample(200 * MS, 1_000_000);
    m.sample(1_000 * MS, 2_000_000);
    assertEquals(2_000_000, m.reachedBytesPerSecond(), 1e-6, "2 MB in one second, below half the 5 s window");
  }

  @Test
  void aLongerDownloadReachedItsPeakWindowNotItsLastOne() {
    SpeedMeter m = new SpeedMeter(1_000);
    long bytes = 0;
    for (long t = 0; t <= 2_000; t += 100) {
      m.sample(t * MS, bytes);
      bytes += t < 1_000 ? 1_000_000 : 100_000;   // 10 MB/s for a second, then 1 MB/s
    }
    assertEquals(10_000_000, m.reachedBytesPerSecond(), 1e-6, "the first second's window, not the slow end");
  }
}
