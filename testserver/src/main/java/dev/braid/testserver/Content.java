package dev.braid.testserver;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Immutable bytes served by a {@link Resource}: either a copy of a byte array or deterministic
 * pseudo-random bytes computed on the fly, so multi-gigabyte files cost no memory.
 */
public final class Content {
  private static final int CHUNK = 64 * 1024;

  /** Reads {@code len} bytes at {@code offset}; callers have already checked the bounds. */
  private interface Source {
    void read(long offset, byte[] dst, int off, int len);
  }

  private final long size;
  private final Source source;
  private volatile byte[] sha256;

  private Content(long size, Source source) {
    this.size = size;
    this.source = source;
  }

  /**
   * Pseudo-random content of {@code size} bytes; the byte at any offset depends only on
   * {@code (seed, offset)}, so any split of reads yields the same bytes.
   */
  public static Content random(long size, long seed) {
    if (size < 0) {
      throw new IllegalArgumentException("size < 0: " + size);
    }
    return new Content(size, new RandomSource(seed));
  }

  /** Content holding a copy of {@code bytes}. */
  public static Content of(byte[] bytes) {
    byte[] copy = bytes.clone();
    return new Content(copy.length, (offset, dst, off, len) -> System.arraycopy(copy, (int) offset, dst, off, len));
  }

  /** The length in bytes. */
  public long size() {
    return size;
  }

  /** Copies {@code len} bytes starting at {@code offset} into {@code dst[off..off+len)}. */
  public void read(long offset, byte[] dst, int off, int len) {
    Objects.checkFromIndexSize(off, len, dst.length);
    if (offset < 0 || offset > size - len) {
      throw new IndexOutOfBoundsException("range [" + offset + ", " + offset + " + " + len + ") outside size " + size);
    }
    source.read(offset, dst, off, len);
  }

  /** SHA-256 of the whole content; computed on first call and cached. Returns a fresh copy. */
  public byte[] sha256() {
    byte[] digest = sha256;
    if (digest == null) {
      synchronized (this) {
        digest = sha256;
        if (digest == null) {
          sha256 = digest = computeSha256();
        }
      }
    }
    return digest.clone();
  }

  /** {@link #sha256()} as lower-case hex. */
  public String sha256Hex() {
    return HexFormat.of().formatHex(sha256());
  }

  /** SHA-256 of a file as lower-case hex, to compare a download with {@link #sha256Hex()}. */
  public static String sha256Hex(Path file) throws IOException {
    MessageDigest md = newSha256();
    byte[] buf = new byte[1 << 20];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buf)) > 0; ) {
        md.update(buf, 0, n);
      }
    }
    return HexFormat.of().formatHex(md.digest());
  }

  /** Writes the whole content to {@code out}, e.g. to create the file a download should produce. */
  public void writeTo(OutputStream out) throws IOException {
    byte[] buf = new byte[(int) Math.min(CHUNK, size)];
    for (long pos = 0; pos < size; ) {
      int n = (int) Math.min(buf.length, size - pos);
      source.read(pos, buf, 0, n);
      out.write(buf, 0, n);
      pos += n;
    }
  }

  private static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM must provide SHA-256", e);
    }
  }

  private byte[] computeSha256() {
    return sha256(0, size);
  }

  /** SHA-256 of the {@code length} bytes from {@code offset}: what a digest of a range covers. */
  public byte[] sha256(long offset, long length) {
    if (offset < 0 || length < 0 || offset + length > size) {
      throw new IllegalArgumentException("bytes " + offset + "+" + length + " are not within " + size);
    }
    MessageDigest md = newSha256();
    byte[] buf = new byte[(int) Math.max(1, Math.min(CHUNK, length))];
    for (long pos = offset; pos < offset + length; ) {
      int n = (int) Math.min(buf.length, offset + length - pos);
      source.read(pos, buf, 0, n);
      md.update(buf, 0, n);
      pos += n;
    }
    return md.digest();
  }

  /**
   * Splitmix64 indexed by 8-byte word: word {@code i} is the mix of {@code mixedSeed + i * GAMMA},
   * i.e. the i-th output of a splitmix64 stream, computable at any offset without state.
   */
  private static final class RandomSource implements Source {
    private static final long GAMMA = 0x9E3779B97F4A7C15L;
    // Writes whole little-endian words at once; this is what makes generation run at GB/s.
    private static final VarHandle LONGS =
        MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final long base;

    RandomSource(long seed) {
      // Mixing the seed keeps nearby seeds from producing shifted copies of the same stream.
      this.base = mix(seed);
    }

    @Override
    public void read(long offset, byte[] dst, int off, int len) {
      int i = 0;
      for (; i < len && ((offset + i) & 7) != 0; i++) {
        dst[off + i] = byteAt(offset + i);
      }
      for (long word = (offset + i) >>> 3; len - i >= 8; i += 8, word++) {
        LONGS.set(dst, off + i, word(word));
      }
      for (; i < len; i++) {
        dst[off + i] = byteAt(offset + i);
      }
    }

    private byte byteAt(long pos) {
      return (byte) (word(pos >>> 3) >>> ((pos & 7) << 3));
    }

    private long word(long index) {
      return mix(base + index * GAMMA);
    }

    private static long mix(long z) {
      z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
      z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
      return z ^ (z >>> 31);
    }
  }
}
