package dev.braid.core;

import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Expected digests of a file's consecutive pieces (a Metalink's {@code <pieces>}): piece {@code k}
 * covers {@code [k * length, (k + 1) * length)}, the last one shorter. Braid hashes each piece as
 * soon as its bytes are on disk; a piece that does not match is fetched again, from another
 * mirror when there is one (see {@link DownloadRequestBuilder#pieceHashes}).
 *
 * @param algorithm one of {@link #ALGORITHMS}, lower case
 * @param length bytes per piece, at least 1
 * @param hashes the expected digests in file order, lower-case hexadecimal
 */
public record PieceHashes(String algorithm, long length, List<String> hashes) {
  /** The piece digests Braid checks (the JDK's, with CPU intrinsics). */
  public static final List<String> ALGORITHMS = List.of("sha-1", "sha-256", "sha-384", "sha-512", "md5");

  /**
   * Checks the pieces, normalises the algorithm and the digests to lower case, and copies them.
   *
   * @param algorithm one of {@link #ALGORITHMS}
   * @param length bytes per piece, at least 1
   * @param hashes the expected digests in file order, hexadecimal
   * @throws IllegalArgumentException for an unknown algorithm, a length below 1, no hashes, or a
   *     hash that is not hexadecimal of the algorithm's length
   */
  public PieceHashes {
    Objects.requireNonNull(algorithm, "algorithm");
    Objects.requireNonNull(hashes, "hashes");
    algorithm = algorithm.toLowerCase(Locale.ROOT);
    if (!ALGORITHMS.contains(algorithm)) {
      throw new IllegalArgumentException("unknown piece hash " + algorithm + " (known: " + String.join(", ", ALGORITHMS) + ")");
    }
    if (length < 1) {
      throw new IllegalArgumentException("the piece length must be positive, not " + length);
    }
    if (hashes.isEmpty()) {
      throw new IllegalArgumentException("no piece hashes");
    }
    int digits = digestBytes(algorithm) * 2;
    hashes = hashes.stream().map(h -> h.strip().toLowerCase(Locale.ROOT)).toList();
    for (String h : hashes) {
      if (h.length() != digits || !h.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
        throw new IllegalArgumentException("a " + algorithm + " piece hash is " + digits + " hexadecimal digits, not '" + h + "'");
      }
    }
  }

  /** {@return the JDK's name of the algorithm ({@code SHA-256})} */
  public String jdkName() {
    return algorithm.toUpperCase(Locale.ROOT);
  }

  /**
   * {@return whether these pieces describe a file of exactly {@code fileLength} bytes}
   *
   * @param fileLength a file's length in bytes
   */
  public boolean fits(long fileLength) {
    return fileLength > 0 && (fileLength + length - 1) / length == hashes.size();
  }

  /**
   * {@return the expected digest of piece {@code k}, as bytes}
   *
   * @param k the piece's index, from 0
   */
  public byte[] expected(int k) {
    return HexFormat.of().parseHex(hashes.get(k));
  }

  private static int digestBytes(String algorithm) {
    return switch (algorithm) {
      case "sha-1" -> 20;
      case "sha-256" -> 32;
      case "sha-384" -> 48;
      case "sha-512" -> 64;
      default -> 16;
    };
  }

  /** {@return one line of text, {@code ALGO:LENGTH:HEX,HEX,...}: how the queue stores them and the RPC carries them} */
  public String text() {
    return algorithm + ":" + length + ":" + String.join(",", hashes);
  }

  /**
   * The inverse of {@link #text()}.
   *
   * @param text the text {@link #text()} wrote
   * @return the pieces
   * @throws IllegalArgumentException when {@code text} is not of that form or its hashes are bad
   */
  public static PieceHashes parse(String text) {
    String[] p = text.split(":", 3);
    if (p.length != 3) {
      throw new IllegalArgumentException("not ALGO:LENGTH:HASHES");
    }
    long length;
    try {
      length = Long.parseLong(p[1]);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("the piece length '" + p[1] + "' is not a number of bytes", e);
    }
    return new PieceHashes(p[0], length, List.of(p[2].split(",")));
  }

  @Override
  public String toString() {
    return hashes.size() + " " + algorithm + " pieces of " + length + " bytes";
  }
}
