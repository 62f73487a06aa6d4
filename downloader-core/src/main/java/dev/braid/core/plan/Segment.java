package dev.braid.core.plan;

/**
 * A byte range {@code [start, end)} fetched by at most one worker at a time. {@code position} is the
 * next byte to write; {@code [start, position)} is written. A split may move {@code end} down while
 * the owner streams, never below what the owner has claimed. All fields are guarded by the
 * owning {@link SegmentTable}'s lock.
 */
public final class Segment {
  final long start;
  long end;
  long position;
  /** End of the bytes the owner has claimed and is writing right now; a split never cuts below it. */
  long claimedEnd;
  boolean assigned;

  Segment(long start, long end, long position) {
    this.start = start;
    this.end = end;
    this.position = position;
    this.claimedEnd = position;
  }

  public long start() {
    return start;
  }

  @Override
  public String toString() {
    return "[" + start + ", " + end + ") at " + position;
  }
}
