package dev.braid.core.internal.plan;

/**
 * A byte range {@code [start, end)} fetched by at most one worker at a time, in requests of
 * bounded size. {@code position} is the next byte to write; {@code [start, position)} is written.
 * A split may move {@code end} down while the owner streams, never below what the owner has
 * claimed, and below the owner's in-flight request only in the tail. All fields are guarded by
 * the owning {@link SegmentTable}'s lock.
 */
public final class Segment {
  /** Moves up only when {@link SegmentTable#reopen} takes back written bytes before the owner's position. */
  long start;
  long end;
  long position;
  /** End of the bytes the owner has claimed and is writing right now; a split never cuts below it. */
  long claimedEnd;
  /** End of the owner's in-flight request; a split that lands at or beyond it cuts nothing short. */
  long requestEnd;
  /** Position when the owner's current request began. */
  long requestFrom;
  /** The owner's pace, for a tail steal: position and time (ns) where the current window began. */
  long paceFrom;
  long paceAt;
  /** Bytes per second in the previous window of the current request; negative when there was none. */
  double lastPace = -1;
  boolean assigned;

  Segment(long start, long end, long position) {
    this.start = start;
    this.end = end;
    this.position = position;
    this.claimedEnd = position;
    this.requestEnd = position;
    this.requestFrom = position;
    this.paceFrom = position;
  }

  public long start() {
    return start;
  }

  @Override
  public String toString() {
    return "[" + start + ", " + end + ") at " + position;
  }
}
