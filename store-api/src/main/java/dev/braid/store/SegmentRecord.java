package dev.braid.store;

/**
 * One stored segment: the byte range {@code [start, end)} of which {@code [start, start + done)}
 * is durably on disk. {@code end} is {@code -1} for a download of unknown length.
 */
public record SegmentRecord(long start, long end, long done) {
  public SegmentRecord {
    if (start < 0 || done < 0 || (end >= 0 && start + done > end)) {
      throw new IllegalArgumentException("invalid segment " + start + "-" + end + " done " + done);
    }
  }

  /** Whether every byte of the segment is on disk (never true for an unknown end). */
  public boolean complete() {
    return end >= 0 && start + done == end;
  }
}
