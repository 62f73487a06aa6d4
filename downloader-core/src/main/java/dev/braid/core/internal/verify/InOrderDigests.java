package dev.braid.core.internal.verify;

import dev.braid.core.Checksum;
import dev.braid.core.FailureDetail;
import dev.braid.core.IntegrityException;
import dev.braid.core.PieceHashes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * A stream's checks, made on its bytes as they go out in order (nothing is on disk to read back):
 * each piece hash at the end of its piece, the whole file's checksum at the end of the file.
 * A mismatch can only be told after the bytes went out. Owned by the stream's reader thread.
 */
public final class InOrderDigests {
  private final Checksum.Digester whole;
  private final Checksum expected;
  private final PieceHashes pieces;
  private final MessageDigest piece;
  private final String what;
  private long at;

  /**
   * @param expected the whole file's checksum, or null
   * @param what what {@code expected} is, for a mismatch's message ("checksum", or a server's digest)
   * @param pieces the pieces' hashes, or null (or when they do not cover {@code length})
   */
  public InOrderDigests(Checksum expected, String what, PieceHashes pieces, long length) {
    this.expected = expected;
    this.what = what;
    this.whole = expected == null ? null : Checksum.digester(expected.algorithm());
    this.pieces = pieces != null && pieces.fits(length) ? pieces : null;
    try {
      this.piece = this.pieces == null ? null : MessageDigest.getInstance(this.pieces.jdkName());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK lacks " + pieces.jdkName(), e);
    }
  }

  /** Whether there is anything to check. */
  public boolean any() {
    return whole != null || piece != null;
  }

  /** The next {@code n} bytes of the file; a piece they complete that fails its hash is an {@link IntegrityException}. */
  public void update(byte[] b, int off, int n) throws IntegrityException {
    if (whole != null) {
      whole.update(b, off, n);
    }
    while (piece != null && n > 0) {
      long pieceEnd = (at / pieces.length() + 1) * pieces.length();
      int k = (int) Math.min(n, pieceEnd - at);
      piece.update(b, off, k);
      at += k;
      off += k;
      n -= k;
      if (at == pieceEnd) {
        pieceDone((int) (at / pieces.length()) - 1);
      }
    }
  }

  /** Every byte went through: the last piece and the whole file's checksum are checked. */
  public void finish() throws IntegrityException {
    if (piece != null && at % pieces.length() != 0) {
      pieceDone((int) (at / pieces.length()));
    }
    if (whole != null) {
      Checksum actual = whole.finish();
      if (!actual.hex().equals(expected.hex())) {
        throw new IntegrityException(expected.algorithm() + " " + what + " mismatch: expected " + expected.hex() + ", got "
            + actual.hex() + "; the bytes went out already", null, FailureDetail.CHECKSUM);
      }
    }
  }

  private void pieceDone(int k) throws IntegrityException {
    if (!Arrays.equals(piece.digest(), pieces.expected(k))) {
      long from = k * pieces.length();
      throw new IntegrityException("piece " + k + " (bytes " + from + "-" + (at - 1) + ") failed its " + pieces.algorithm()
          + " hash; the bytes went out already", null, FailureDetail.CHECKSUM);
    }
  }
}
