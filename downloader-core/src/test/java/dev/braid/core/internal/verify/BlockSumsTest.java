package dev.braid.core.internal.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.braid.store.SegmentRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

class BlockSumsTest {
  private static final long B = BlockSums.BLOCK;

  @Test
  void aBlockCountsOnlyWhenEveryByteOfItIsDone() {
    // [0, 2.5B) done of a segment to 3B, and a segment from 3B done to its end at 5B
    List<SegmentRecord> s = List.of(new SegmentRecord(0, 3 * B, 5 * B / 2), new SegmentRecord(3 * B, 5 * B, 2 * B));
    assertEquals(List.of(0, 1, 3, 4), BlockSums.complete(s, 5 * B));
  }

  @Test
  void aBlockSpanningTwoDoneSegmentsCountsAndTheShortLastBlockToo() {
    long length = 2 * B + 10;
    List<SegmentRecord> s = List.of(new SegmentRecord(0, B / 2, B / 2), new SegmentRecord(B / 2, length, length - B / 2));
    assertEquals(List.of(0, 1, 2), BlockSums.complete(s, length));
  }

  @Test
  void nothingDoneNothingComplete() {
    assertEquals(List.of(), BlockSums.complete(List.of(new SegmentRecord(0, 4 * B, 0)), 4 * B));
  }
}
