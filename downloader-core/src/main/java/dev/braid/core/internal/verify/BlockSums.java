package dev.braid.core.internal.verify;

import dev.braid.core.internal.io.PartFile;
import dev.braid.store.SegmentRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;

/**
 * CRC32C of each finished {@value #BLOCK_MIB} MiB block of a part file, so that a resume can
 * re-check the bytes on disk instead of trusting them: a torn write or a disk that lied about a
 * flush would otherwise become part of the final file.
 *
 * <p>Most sums come from the write path: a {@link BlockTracker} per connection sums a block it
 * writes from its first byte to its last, from the buffer it writes from (no extra read). A block
 * no single connection wrote whole (where segments meet, or where a resume continued) is read back
 * after it was forced. Reading every block back instead measured +16 % CPU for 1 GiB, and mapping
 * it held the whole file in the process's resident memory. The driver thread owns this object;
 * trackers only add to its concurrent map of written sums.
 */
public final class BlockSums {
  static final int BLOCK_MIB = 1;
  /** Block size in bytes; block {@code k} covers {@code [k * BLOCK, (k + 1) * BLOCK)} of the file. */
  public static final long BLOCK = (long) BLOCK_MIB << 20;

  private final long length;
  private final Map<Integer, Integer> known;
  private final Map<Integer, Integer> written = new ConcurrentHashMap<>();
  /** Blocks whose bytes were taken back ({@link #forget}): summed by reading them back, never from a tracker. */
  private final Set<Integer> reread = new HashSet<>();
  private ByteBuffer buffer;

  /** @param verified sums already recorded and checked against the file (empty for a fresh download) */
  public BlockSums(long length, Map<Integer, Integer> verified) {
    this.length = length;
    this.known = new HashMap<>(verified);
  }

  /** A tracker for one connection's writes, adding the sums of whole blocks it writes to this. */
  public BlockTracker tracker() {
    return new BlockTracker(length, written);
  }

  /**
   * Sums the blocks that {@code durable} (progress already forced to disk) shows complete and that
   * have no recorded sum yet; returns them, for the store to record with that progress.
   */
  public Map<Integer, Integer> update(PartFile part, List<SegmentRecord> durable) throws IOException {
    Map<Integer, Integer> added = new HashMap<>();
    for (int k : complete(durable, length)) {
      if (!known.containsKey(k)) {
        Integer fromWrites = written.remove(k);
        // a tracker may have summed a block across bytes since taken back and fetched again
        boolean again = reread.remove(k);
        int crc = fromWrites != null && !again ? fromWrites : (int) read(part, k);
        known.put(k, crc);
        added.put(k, crc);
      }
    }
    return added;
  }

  /**
   * Forgets the sums of the blocks overlapping {@code [from, to)}, bytes about to be fetched again
   * (a piece whose hash failed); they are read back once they are complete again.
   */
  public void forget(long from, long to) {
    for (long k = from / BLOCK; k * BLOCK < to; k++) {
      known.remove((int) k);
      written.remove((int) k);
      reread.add((int) k);
    }
  }

  /** Every sum known now, recorded or about to be: what a repaired record keeps. */
  public Map<Integer, Integer> known() {
    return Map.copyOf(known);
  }

  /** The recorded blocks whose bytes on disk no longer have their sum. */
  public static List<Integer> damaged(PartFile part, Map<Integer, Integer> recorded, long length) throws IOException {
    BlockSums reader = new BlockSums(length, Map.of());
    List<Integer> bad = new ArrayList<>();
    for (Map.Entry<Integer, Integer> e : recorded.entrySet()) {
      if (reader.read(part, e.getKey()) != Integer.toUnsignedLong(e.getValue())) {
        bad.add(e.getKey());
      }
    }
    return bad;
  }

  /** Indexes of the blocks lying wholly inside the done parts of {@code segments}. */
  public static List<Integer> complete(List<SegmentRecord> segments, long length) {
    return WholeUnits.of(segments, BLOCK, length);
  }

  /** The block's CRC32C read back from the file, as an unsigned value, or -1 when the file ends inside it. */
  private long read(PartFile part, int k) throws IOException {
    if (buffer == null) {
      buffer = ByteBuffer.allocateDirect(256 << 10);
    }
    long from = k * BLOCK;
    long to = Math.min(from + BLOCK, length);
    CRC32C crc = new CRC32C();
    for (long at = from; at < to; ) {
      buffer.clear().limit((int) Math.min(buffer.capacity(), to - at));
      int n = part.read(buffer, at);
      if (n <= 0) {
        return -1;
      }
      buffer.flip();
      crc.update(buffer);
      at += n;
    }
    return crc.getValue();
  }
}
