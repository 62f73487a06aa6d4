package dev.braid.rpc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.braid.core.Download;
import dev.braid.core.Progress;
import dev.braid.store.DownloadState;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;

/**
 * aria2's view of a download's pieces ({@code bitfield}, {@code numPieces}, {@code pieceLength}),
 * which front ends draw as a piece map (AriaNg's "Pieces" tab): fixed pieces of aria2's default
 * {@code --piece-length}, one bit each, the first piece the high bit of the first byte, in
 * hexadecimal. Braid tracks segments, not pieces, so a piece is complete when the completed parts
 * of its segments cover it. Known while a download runs (its segments), once it completed, and
 * for one stopped part-way from its record ({@link #addRecorded}, one status at a time); where no
 * segment is known the keys are left out, as aria2 leaves them out where it knows no pieces.
 */
final class PieceMap {
  /** aria2's default {@code --piece-length}. */
  static final long PIECE_LENGTH = 1L << 20;

  private PieceMap() {}

  /**
   * Adds the three keys to {@code status} where the pieces of a download in {@code state} are
   * known; {@code length} is its length, 0 if unknown, and {@code p} the progress it was read from.
   */
  static void addTo(ObjectNode status, DownloadState state, Progress p, long length) {
    if (length <= 0) {
      return;
    }
    List<Progress.Segment> segments;
    if (state == DownloadState.COMPLETED) {
      segments = List.of(new Progress.Segment(0, length, length, false));
    } else if (state == DownloadState.ACTIVE) {
      segments = p.segments();
    } else {
      return;
    }
    put(status, length, segments);
  }

  /**
   * Adds the three keys to the status of {@code d}, paused, failed or waiting after a run, from the
   * segments its record holds (a store query); nothing for a running or completed one, which
   * {@link #addTo} covers, or where nothing is recorded.
   */
  static void addRecorded(ObjectNode status, Download d) {
    DownloadState state = d.state();
    long length = d.progress().length();
    if (state == DownloadState.ACTIVE || state == DownloadState.COMPLETED || length <= 0) {
      return;
    }
    put(status, length, d.recordedSegments());
  }

  private static void put(ObjectNode status, long length, List<Progress.Segment> segments) {
    if (segments.isEmpty()) {
      // running, but not yet split (its probe is out), or stopped with nothing recorded
      return;
    }
    status.put("bitfield", bitfield(length, segments));
    status.put("numPieces", Long.toString(pieces(length)));
    status.put("pieceLength", Long.toString(PIECE_LENGTH));
  }

  /** The hexadecimal bitfield of a file of {@code length} whose completed bytes are the segments' done prefixes. */
  static String bitfield(long length, List<Progress.Segment> segments) {
    int n = (int) pieces(length);
    BitSet complete = new BitSet(n);
    for (long[] r : completedRanges(segments)) {
      // the pieces wholly inside [r0, r1): the last piece ends at the length, not at a multiple of the piece
      long first = (r[0] + PIECE_LENGTH - 1) / PIECE_LENGTH;
      long end = r[1] >= length ? n : r[1] / PIECE_LENGTH;
      if (first < end) {
        complete.set((int) first, (int) end);
      }
    }
    StringBuilder hex = new StringBuilder((n + 7) / 8 * 2);
    for (int b = 0; b < (n + 7) / 8; b++) {
      int v = 0;
      for (int i = 0; i < 8; i++) {
        v = (v << 1) | (complete.get(b * 8 + i) ? 1 : 0);
      }
      hex.append(Character.forDigit(v >> 4, 16)).append(Character.forDigit(v & 0xf, 16));
    }
    return hex.toString();
  }

  private static long pieces(long length) {
    return (length + PIECE_LENGTH - 1) / PIECE_LENGTH;
  }

  /** The segments' done prefixes as sorted, merged ranges: two segments' parts may complete one piece together. */
  private static List<long[]> completedRanges(List<Progress.Segment> segments) {
    List<long[]> done = new ArrayList<>();
    for (Progress.Segment s : segments) {
      if (s.done() > 0) {
        done.add(new long[] {s.start(), s.start() + s.done()});
      }
    }
    done.sort(Comparator.comparingLong(r -> r[0]));
    List<long[]> merged = new ArrayList<>();
    for (long[] r : done) {
      long[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      if (last != null && r[0] <= last[1]) {
        last[1] = Math.max(last[1], r[1]);
      } else {
        merged.add(r);
      }
    }
    return merged;
  }
}
