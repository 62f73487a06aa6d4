package dev.braid.core;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.bouncycastle.crypto.Digest;
import org.bouncycastle.crypto.digests.Blake2bDigest;
import org.bouncycastle.crypto.digests.Blake3Digest;
import org.bouncycastle.crypto.digests.SHA3Digest;

/**
 * Computes a whole-file digest with plain 1 MiB reads (measured faster than mapping the file).
 * The JDK's digests are used where they have CPU intrinsics (SHA-1/2, MD5); Bouncy Castle for
 * BLAKE2b, BLAKE3 and SHA3 (faster than the JDK's SHA3 here).
 */
final class FileDigest {
  private FileDigest() {}

  /**
   * The lower-case hexadecimal digest of {@code file} by {@code algorithm} (a {@link Checksum#ALGORITHMS}
   * name), given up, empty, once {@code stop} says so: it is asked before each read of 1 MiB, so a
   * digest of a large file stops within one read.
   */
  static Optional<String> hex(Path file, String algorithm, BooleanSupplier stop) throws IOException {
    Hasher h = hasher(algorithm);
    byte[] buffer = new byte[1 << 20];
    try (InputStream in = Files.newInputStream(file)) {
      while (!stop.getAsBoolean()) {
        int n = in.read(buffer);
        if (n <= 0) {
          return Optional.of(HexFormat.of().formatHex(h.finish()));
        }
        h.update(buffer, 0, n);
      }
    }
    return Optional.empty();
  }

  /** An incremental digest of one algorithm. */
  interface Hasher {
    void update(byte[] b, int off, int n);

    byte[] finish();
  }

  /** A new incremental digest by {@code algorithm} (a {@link Checksum#ALGORITHMS} name). */
  static Hasher hasher(String algorithm) {
    return switch (algorithm) {
      case "sha-256" -> jdk("SHA-256");
      case "sha-512" -> jdk("SHA-512");
      case "sha-1" -> jdk("SHA-1");
      case "md5" -> jdk("MD5");
      case "sha3-256" -> bc(new SHA3Digest(256));
      case "blake2b-512" -> bc(new Blake2bDigest(512));
      case "blake3" -> bc(new Blake3Digest(256));
      default -> throw new IllegalArgumentException("unknown algorithm " + algorithm);
    };
  }

  private static Hasher jdk(String name) {
    MessageDigest md;
    try {
      md = MessageDigest.getInstance(name);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK lacks " + name, e);
    }
    return new Hasher() {
      @Override
      public void update(byte[] b, int off, int n) {
        md.update(b, off, n);
      }

      @Override
      public byte[] finish() {
        return md.digest();
      }
    };
  }

  private static Hasher bc(Digest d) {
    return new Hasher() {
      @Override
      public void update(byte[] b, int off, int n) {
        d.update(b, off, n);
      }

      @Override
      public byte[] finish() {
        byte[] out = new byte[d.getDigestSize()];
        d.doFinal(out, 0);
        return out;
      }
    };
  }
}
