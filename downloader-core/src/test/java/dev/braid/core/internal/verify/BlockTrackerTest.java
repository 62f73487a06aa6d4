package dev.braid.core.internal.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class BlockTrackerTest {
  private static final int B = (int) BlockSums.BLOCK;

  private static int crc(byte[] b, int from, int to) {
    CRC32C c = new CRC32C();
    c.update(b, from, to - from);
    return (int) c.getValue();
  }

  @Test
  void blocksWrittenWholeInPiecesAreSummedAndOthersAreNot() {
    byte[] file = new byte[3 * B + 100];
    new Random(1).nextBytes(file);
    Map<Integer, Integer> sums = new ConcurrentHashMap<>();
    BlockTracker t = new BlockTracker(file.length, sums);
    // block 0 whole in uneven pieces, one piece crossing into block 1
    t.wrote(file, 0, 1000, 0);
    t.wrote(file, 1000, B - 1000 + 500, 1000);
    // a gap in block 1: it must not be summed
    t.wrote(file, B + 600, 1000, B + 600);
    // another connection starts mid-block 2 and goes on through the short last block
    BlockTracker other = new BlockTracker(file.length, sums);
    other.wrote(file, 2 * B + 10, B - 10 + 100, 2 * B + 10);
    assertEquals(Map.of(0, crc(file, 0, B), 3, crc(file, 3 * B, file.length)), sums);
  }
}
