package dev.braid.core.internal.plan;

/**
 * Where an idle worker may cut into another's segment, and when it may not. Holds only the
 * table's fixed settings; the segments it reads belong to the {@link SegmentTable}, whose lock the
 * caller holds for every call.
 */
final class SplitPolicy {
  /**
   * A remainder too small to halve is still split when its owner, at the pace of its current
   * request, needs at least this long for it: on a lossy path one connection at a fifth of the
   * others' speed held the last 0.9 MiB of a 16 MiB file for 4 s after every other piece was done.
   */
  static final double STEAL_SECONDS = 1.0;
  /** A window younger than this is too short to judge (time to first byte, bursts); the previous one counts. */
  static final long PACE_MIN_NANOS = 500_000_000L;
  /** The least a tail steal takes: below it, the thief's request round trip costs more than it saves. */
  static final long MIN_STEAL = 64L << 10;

  private final long minSplit;
  private final boolean splittable;

  SplitPolicy(long minSplit, boolean splittable) {
    this.minSplit = Math.max(1, minSplit);
    this.splittable = splittable;
  }

  /**
   * Where an in-flight segment would be split, or -1 when it should not be: the midpoint of its
   * remainder, moved up to the end of the owner's in-flight request when the midpoint falls inside
   * it and at least the minimum split size lies beyond. Cutting a response short means aborting
   * its connection and throwing away what the server already pushed into socket buffers
   * (megabytes on a fast path), so a split cuts into a request only when the half it takes is at
   * least {@code cutMin} too: a quarter second of one connection's throughput (the scheduler's
   * choice), a time the owner would otherwise need to get there. In the tail, a remainder too small
   * to halve is halved anyway when the owner is slow ({@link #slowTail}).
   */
  long splitPoint(Segment s, long cutMin, long now) {
    if (!splittable || !s.assigned || s.end == SegmentTable.UNKNOWN_END) {
      return -1;
    }
    boolean halves = remainder(s) / 2 >= minSplit;
    long mid = s.claimedEnd + remainder(s) / 2;
    if (halves && mid >= s.requestEnd) {
      return mid;
    }
    // the part beyond the owner's request, even when the rest is too small to halve: halving
    // alone left a 16 MiB file in 8 pieces of ~2 MiB that none of 16 connections could split
    if (s.end - s.requestEnd >= minSplit && (halves || s.requestEnd > s.claimedEnd)) {
      return s.requestEnd;
    }
    if (halves) {
      return s.end - mid >= cutMin ? mid : -1;
    }
    return cutMin != SegmentTable.NO_CUT && slowTail(s, now) ? mid : -1;
  }

  /**
   * {@link #splitPoint(Segment, long, long)} within a window of work ending at {@code limit}
   * ({@link SegmentTable#inOrder}; {@link Long#MAX_VALUE} for none): a point beyond it gives way
   * to the end of the owner's request when that lies inside, so the taker works right after the
   * owner's bytes, else there is no split.
   */
  long splitPoint(Segment s, long cutMin, long now, long limit) {
    long point = splitPoint(s, cutMin, now);
    if (point < 0 || point < limit) {
      return point;
    }
    boolean afterRequest = s.requestEnd > s.claimedEnd && s.requestEnd < limit && s.end - s.requestEnd >= minSplit;
    return afterRequest ? s.requestEnd : -1;
  }

  /**
   * Whether the owner needs at least {@link #STEAL_SECONDS} for a remainder under twice the
   * minimum split, at the pace of its current request (no byte yet counts as never), and half of
   * it is worth a request of its own. On a fast path a remainder that small takes milliseconds,
   * so this only fires where one connection crawls. The cut minimum does not apply: what a cut
   * throws away is what the owner has in flight, a fraction of a second at its own slow pace,
   * while the half taken is at least half a second of it.
   */
  private static boolean slowTail(Segment s, long now) {
    if (s.requestEnd <= s.requestFrom || remainder(s) / 2 < MIN_STEAL) {
      return false;
    }
    long elapsed = now - s.paceAt;
    double pace = elapsed >= PACE_MIN_NANOS ? (s.position - s.paceFrom) * 1e9 / elapsed : s.lastPace;
    return pace >= 0 && remainder(s) >= pace * STEAL_SECONDS;
  }

  /** What is left of a segment beyond the bytes its owner has claimed: what a split may take. */
  static long remainder(Segment s) {
    return s.end - s.claimedEnd;
  }
}
