package dev.braid.core.internal.verify;

import dev.braid.core.PieceHashes;
import dev.braid.core.internal.io.PartFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * Hashes one piece of a part file, read back from it (the page cache, as it was just written),
 * and compares it with the expected digest. Owned by the driver thread; its buffer is reused.
 */
public final class PieceDigest {
  private final PieceHashes pieces;
  private final long fileLength;
  private final MessageDigest digest;
  private final ByteBuffer buffer = ByteBuffer.allocate(256 << 10);

  public PieceDigest(PieceHashes pieces, long fileLength) {
    this.pieces = pieces;
    this.fileLength = fileLength;
    try {
      this.digest = MessageDigest.getInstance(pieces.jdkName());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK lacks " + pieces.jdkName(), e);
    }
  }

  /** First byte of piece {@code k}. */
  public long from(int k) {
    return k * pieces.length();
  }

  /** The end (exclusive) of piece {@code k}. */
  public long to(int k) {
    return Math.min(fileLength, (k + 1) * pieces.length());
  }

  /** The length of the file the pieces cover. */
  public long fileLength() {
    return fileLength;
  }

  /** Whether piece {@code k}'s bytes in {@code part} have their expected digest. */
  public boolean matches(PartFile part, int k) throws IOException {
    digest.reset();
    long end = to(k);
    for (long at = from(k); at < end; ) {
      buffer.clear().limit((int) Math.min(buffer.capacity(), end - at));
      int n = part.read(buffer, at);
      if (n <= 0) {
        return false;
      }
      buffer.flip();
      digest.update(buffer);
      at += n;
    }
    return Arrays.equals(digest.digest(), pieces.expected(k));
  }
}
