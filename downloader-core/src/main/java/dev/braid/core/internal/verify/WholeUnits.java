package dev.braid.core.internal.verify;

import dev.braid.store.SegmentRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which fixed-size units of a file (1 MiB blocks for the CRC32C records, a Metalink's pieces for
 * its hashes) lie wholly inside the done parts of a download's segments: only those can be
 * checked. Done parts of neighbouring segments join, so a unit that straddles two is whole too.
 */
public final class WholeUnits {
  private WholeUnits() {}

  /**
   * Indexes of the units of {@code unit} bytes (the last one ending at {@code length}) lying wholly
   * inside the done parts of {@code segments}, in order.
   */
  public static List<Integer> of(List<SegmentRecord> segments, long unit, long length) {
    List<long[]> done = new ArrayList<>();
    segments.stream().sorted(Comparator.comparingLong(SegmentRecord::start)).forEach(s -> {
      long from = s.start();
      long to = s.start() + s.done();
      if (to <= from) {
        return;
      }
      long[] last = done.isEmpty() ? null : done.get(done.size() - 1);
      if (last != null && last[1] == from) {
        last[1] = to;
      } else {
        done.add(new long[] {from, to});
      }
    });
    List<Integer> out = new ArrayList<>();
    for (long[] r : done) {
      for (long k = (r[0] + unit - 1) / unit; k * unit < r[1]; k++) {
        if (Math.min((k + 1) * unit, length) <= r[1]) {
          out.add((int) k);
        }
      }
    }
    return out;
  }
}
