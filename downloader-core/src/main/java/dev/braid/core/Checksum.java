package dev.braid.core;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * An expected digest of a whole file, checked before the file gets its final name.
 *
 * @param algorithm one of {@link #ALGORITHMS}, lower case
 * @param hex the expected digest, lower-case hexadecimal
 */
public record Checksum(String algorithm, String hex) {
  /** The algorithms Braid verifies. */
  public static final List<String> ALGORITHMS =
      List.of("sha-256", "sha-512", "sha-1", "md5", "sha3-256", "blake2b-512", "blake3");

  /**
   * Keeps both in lower case, so that equal digests compare equal whatever case they were given in.
   *
   * @param algorithm one of {@link #ALGORITHMS}
   * @param hex the expected digest, in hexadecimal
   */
  public Checksum {
    algorithm = algorithm.toLowerCase(Locale.ROOT);
    hex = hex.toLowerCase(Locale.ROOT);
  }

  /**
   * {@return the digest of {@code file} by {@code algorithm}, read whole with plain 1 MiB reads}
   *
   * @param file the file
   * @param algorithm one of {@link #ALGORITHMS}
   * @throws IOException when the file cannot be read
   * @throws IllegalArgumentException for an algorithm not among {@link #ALGORITHMS}
   */
  public static Checksum of(Path file, String algorithm) throws IOException {
    return of(file, algorithm, () -> false).orElseThrow();
  }

  /**
   * {@return as {@link #of(Path, String)}, but given up, empty, once {@code stop} says so: it is
   * asked before each read of 1 MiB, so a digest of a large file stops within one read}
   *
   * @param file the file
   * @param algorithm one of {@link #ALGORITHMS}
   * @param stop whether to give up
   * @throws IOException when the file cannot be read
   * @throws IllegalArgumentException for an algorithm not among {@link #ALGORITHMS}
   */
  public static Optional<Checksum> of(Path file, String algorithm, BooleanSupplier stop) throws IOException {
    String a = algorithm.toLowerCase(Locale.ROOT);
    return FileDigest.hex(file, a, stop).map(hex -> new Checksum(a, hex));
  }

  /**
   * {@return a digest by {@code algorithm} fed as bytes pass (a stream's bytes, in order)}
   *
   * @param algorithm one of {@link #ALGORITHMS}
   * @throws IllegalArgumentException for an algorithm not among {@link #ALGORITHMS}
   */
  public static Digester digester(String algorithm) {
    String a = algorithm.toLowerCase(Locale.ROOT);
    FileDigest.Hasher h = FileDigest.hasher(a);
    return new Digester() {
      @Override
      public void update(byte[] bytes, int offset, int length) {
        h.update(bytes, offset, length);
      }

      @Override
      public Checksum finish() {
        return new Checksum(a, HexFormat.of().formatHex(h.finish()));
      }
    };
  }

  /** A digest computed as bytes pass, made by {@link #digester}; one thread at a time. */
  public interface Digester {
    /**
     * Adds {@code length} bytes of {@code bytes} from {@code offset}.
     *
     * @param bytes the bytes
     * @param offset where they start
     * @param length how many
     */
    void update(byte[] bytes, int offset, int length);

    /** {@return the digest of every byte added; the digester is spent} */
    Checksum finish();
  }

  /**
   * Parses {@code ALGO=HEX}, as in {@code sha-256=9f86d0...}; {@code sha256} is accepted for
   * {@code sha-256}.
   *
   * @param spec the checksum as {@code ALGO=HEX}
   * @return the checksum
   * @throws InvalidRequestException for an unknown algorithm or a digest of the wrong length
   */
  public static Checksum parse(String spec) throws InvalidRequestException {
    int eq = spec.indexOf('=');
    if (eq <= 0) {
      throw new InvalidRequestException("checksum '" + spec + "' is not ALGO=HEX (for example sha-256=9f86d0...)");
    }
    String algo = normalise(spec.substring(0, eq).trim());
    String hex = spec.substring(eq + 1).trim().toLowerCase(Locale.ROOT);
    if (!ALGORITHMS.contains(algo)) {
      throw new InvalidRequestException("unknown checksum algorithm " + spec.substring(0, eq).trim() + " (known: "
          + String.join(", ", ALGORITHMS) + ")");
    }
    int bytes = digestLength(algo);
    if (hex.length() != bytes * 2 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
      throw new InvalidRequestException("a " + algo + " checksum is " + bytes * 2 + " hexadecimal digits, not '" + hex + "'");
    }
    return new Checksum(algo, hex);
  }

  private static String normalise(String algo) {
    String a = algo.toLowerCase(Locale.ROOT);
    return switch (a) {
      case "sha256" -> "sha-256";
      case "sha512" -> "sha-512";
      case "sha1" -> "sha-1";
      case "sha3" -> "sha3-256";
      case "blake2b" -> "blake2b-512";
      default -> a;
    };
  }

  private static int digestLength(String algo) {
    return switch (algo) {
      case "sha-256", "sha3-256", "blake3" -> 32;
      case "sha-512", "blake2b-512" -> 64;
      case "sha-1" -> 20;
      case "md5" -> 16;
      default -> throw new IllegalArgumentException(algo);
    };
  }

  /** {@return the expected digest as bytes} */
  public byte[] bytes() {
    return HexFormat.of().parseHex(hex);
  }

  @Override
  public String toString() {
    return algorithm + "=" + hex;
  }
}
