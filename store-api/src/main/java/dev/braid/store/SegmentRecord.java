package dev.braid.store;

/**
 * One stored segment: the byte range {@code [start, end)} of which {@code [start, start + done)}
 * is durably on disk. {@code end} is {@code -1} for a download of unknown length.
 */
public record SegmentRecord(long start, long end, long done) {
  /**
   * Checks that the range is well-formed: non-negative, and no more done than it holds.
   *
   * @param start the first byte
   * @param end the byte after the last, or -1 for an unknown end
   * @param done how many bytes from {@code start} are on disk
   * @throws IllegalArgumentException for a negative start or done, or more done than the range
   *     holds
   */
  public SegmentRecord {
    if (start < 0 || done < 0 || (end >= 0 && start + done > end)) {
      throw new IllegalArgumentException("invalid segment " + start + "-" + end + " done " + done);
    }
  }

  /** {@return whether every byte of the segment is on disk (never true for an unknown end)} */
  public boolean complete() {
    return end >= 0 && start + done == end;
  }
}
