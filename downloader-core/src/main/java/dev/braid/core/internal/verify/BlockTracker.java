package dev.braid.core.internal.verify;

import java.util.Map;
import java.util.zip.CRC32C;

/**
 * Sums, as one connection writes, each {@link BlockSums#BLOCK} block that it writes from its
 * first byte to its last without a gap. Owned by that connection's thread; the sums it finishes go
 * to a concurrent map that the driver reads.
 */
public final class BlockTracker {
  private final long length;
  private final Map<Integer, Integer> finished;
  private final CRC32C crc = new CRC32C();
  /** Start of the block being summed, or -1 when none is (this connection did not start it). */
  private long blockStart = -1;
  private long next;

  BlockTracker(long length, Map<Integer, Integer> finished) {
    this.length = length;
    this.finished = finished;
  }

  /** {@code n} bytes of {@code b} from {@code offset} were written at file {@code position}. */
  public void wrote(byte[] b, int offset, int n, long position) {
    long p = position;
    int o = offset;
    int left = n;
    while (left > 0) {
      long start = p / BlockSums.BLOCK * BlockSums.BLOCK;
      long end = Math.min(start + BlockSums.BLOCK, length);
      int take = (int) Math.min(left, end - p);
      if (p == start) {
        crc.reset();
        blockStart = start;
      } else if (blockStart != start || p != next) {
        blockStart = -1;
      }
      if (blockStart == start) {
        crc.update(b, o, take);
        next = p + take;
        if (next == end) {
          finished.put((int) (start / BlockSums.BLOCK), (int) crc.getValue());
          blockStart = -1;
        }
      }
      p += take;
      o += take;
      left -= take;
    }
  }
}
