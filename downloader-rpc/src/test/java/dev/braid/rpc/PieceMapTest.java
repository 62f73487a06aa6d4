package dev.braid.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.braid.core.Progress.Segment;
import java.util.List;
import org.junit.jupiter.api.Test;

/** aria2's bitfield from Braid's segments: a piece is complete only where the done parts cover it whole. */
class PieceMapTest {
  private static final long MIB = PieceMap.PIECE_LENGTH;

  @Test
  void aWholeFileSetsEveryPieceAndPadsTheLastByte() {
    // 10 pieces, the last one short: 1111 1111 11(00 0000)
    assertEquals("ffc0", PieceMap.bitfield(9 * MIB + 5, List.of(new Segment(0, 9 * MIB + 5, 9 * MIB + 5, false))));
    assertEquals("80", PieceMap.bitfield(100, List.of(new Segment(0, 100, 100, false))));
  }

  @Test
  void aPieceCountsOnlyWhenItsBytesAreAllDone() {
    long length = 8 * MIB;
    // the first segment's done part ends inside piece 2; the second's starts inside piece 5
    List<Segment> segments = List.of(new Segment(0, 4 * MIB, 2 * MIB + 7, true),
        new Segment(4 * MIB + MIB / 2, length, length - 4 * MIB - MIB / 2, false),
        new Segment(4 * MIB, 4 * MIB + MIB / 2, 0, true));
    // pieces 0, 1 and 5, 6, 7: 1100 0111
    assertEquals("c7", PieceMap.bitfield(length, segments));
  }

  @Test
  void twoSegmentsCompleteAPieceTogether() {
    long length = 3 * MIB;
    // piece 1 is split between the segments; both parts are done, so it is complete
    List<Segment> segments = List.of(new Segment(0, MIB + MIB / 2, MIB + MIB / 2, false),
        new Segment(MIB + MIB / 2, length, MIB / 2 + 10, true));
    assertEquals("c0", PieceMap.bitfield(length, segments));
  }

  @Test
  void nothingDoneIsAllZeroes() {
    assertEquals("0000", PieceMap.bitfield(16 * MIB, List.of(new Segment(0, 16 * MIB, 0, true))));
  }
}
