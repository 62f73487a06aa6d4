package dev.braid.core.internal.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * Takes written bytes back into a table's segment list (a piece whose hash failed). No state of
 * its own: the list and its segments belong to the {@link SegmentTable}, whose lock the caller
 * holds.
 */
final class SegmentReopen {
  private SegmentReopen() {}

  /** See {@link SegmentTable#reopen}. */
  static void reopen(List<Segment> segments, long from, long to) {
    List<Segment> added = new ArrayList<>();
    for (Segment s : List.copyOf(segments)) {
      if (s.end <= from || s.start >= to || s.end == s.start) {
        continue;
      }
      if (s.position < Math.min(s.end, to)) {
        throw new IllegalArgumentException("bytes " + from + "-" + to + " are not all written in " + s);
      }
      if (s.start < from) {
        added.add(new Segment(s.start, from, from));
      }
      if (s.end > to) {
        s.start = to;
      } else {
        // wholly inside: its owner, if any, has nothing left to write and finds it empty
        s.end = s.start;
        s.position = s.start;
        s.claimedEnd = s.start;
        s.requestEnd = s.start;
        segments.remove(s);
      }
    }
    segments.addAll(added);
    segments.add(new Segment(from, to, from));
  }
}
