package dev.braid.gui;

/**
 * One range of a download as the segment map draws it.
 *
 * @param start first byte of the range
 * @param end one past its last byte
 * @param done bytes of the range on disk, counted from {@code start}
 * @param active whether a connection is fetching it right now (its position is {@code start + done})
 */
record SegmentView(long start, long end, long done, boolean active) {
  SegmentView {
    if (end < start || done < 0 || done > end - start) {
      throw new IllegalArgumentException("bad segment " + start + "-" + end + " done " + done);
    }
  }

  long length() {
    return end - start;
  }

  /** Where the connection on this range writes next. */
  long position() {
    return start + done;
  }
}
