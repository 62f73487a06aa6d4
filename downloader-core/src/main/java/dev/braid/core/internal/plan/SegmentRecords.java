package dev.braid.core.internal.plan;

import dev.braid.store.SegmentRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Converts between the {@link SegmentTable}'s segments and the store's records. Pure functions
 * with no state: {@link #segments} builds a table before anyone shares it, and {@link #merged}
 * works on copies the table took under its lock, so neither needs the lock itself.
 */
final class SegmentRecords {
  private SegmentRecords() {}

  /** Segments for stored records, in start order, each written as far as its record says. */
  static List<Segment> segments(List<SegmentRecord> stored) {
    List<Segment> out = new ArrayList<>();
    stored.stream().sorted(Comparator.comparingLong(SegmentRecord::start))
        .forEach(r -> out.add(new Segment(r.start(), r.end(), r.start() + r.done())));
    return out;
  }

  /**
   * Records for copied segments ({start, end or -1, position}), in start order, with adjacent
   * finished segments merged so the stored table stays small however often segments were split.
   */
  static List<SegmentRecord> merged(List<long[]> copy) {
    copy.sort(Comparator.comparingLong(a -> a[0]));
    List<SegmentRecord> out = new ArrayList<>();
    long[] run = null;
    for (long[] c : copy) {
      boolean finished = c[1] >= 0 && c[2] == c[1];
      if (run != null && finished && run[1] == c[0]) {
        run[1] = c[1];
        run[2] = c[1];
        continue;
      }
      if (run != null) {
        out.add(new SegmentRecord(run[0], run[1], run[2] - run[0]));
      }
      run = finished ? c.clone() : null;
      if (!finished) {
        out.add(new SegmentRecord(c[0], c[1], c[2] - c[0]));
      }
    }
    if (run != null) {
      out.add(new SegmentRecord(run[0], run[1], run[2] - run[0]));
    }
    return out;
  }
}
