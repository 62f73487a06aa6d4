package dev.braid.core.internal.transfer;

import dev.braid.core.internal.fetch.SegmentStreamer;

/**
 * How many connections a download may warm besides the probe's: no more than its bytes can use.
 * Before the probe answers, a fresh download does not know its length, so it warms at most
 * {@link #UNKNOWN_LENGTH_EXTRA} (a 3.6 MB file at {@code -c 8} once warmed 7 for its one request);
 * a resume knows what is missing. Once the length is known, the rest is bounded the same way.
 */
final class WarmCount {
  /** Connections warmed besides the probe's while nothing tells how large the file is. */
  static final int UNKNOWN_LENGTH_EXTRA = 1;

  private WarmCount() {}

  /**
   * The connections besides the probe's that {@code remaining} bytes can use when the probe's
   * request takes {@code probeTakes} of them (it is never cut while unmeasured): one per piece
   * of the larger of the minimum split and a first request shared by {@code connections}, at most
   * {@code connections - 1}.
   */
  static int usable(long remaining, long probeTakes, int connections, long minSplit) {
    long rest = remaining - Math.max(0, probeTakes);
    if (rest <= 0 || connections <= 1) {
      return 0;
    }
    long piece = Math.max(minSplit, SegmentStreamer.firstRequestSize(remaining, connections));
    long pieces = (rest + piece - 1) / piece;
    return (int) Math.min(connections - 1L, pieces);
  }
}
