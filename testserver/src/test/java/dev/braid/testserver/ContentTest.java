package dev.braid.testserver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ContentTest {

  private static byte[] read(Content c, long offset, int len) {
    byte[] b = new byte[len];
    c.read(offset, b, 0, len);
    return b;
  }

  @Test
  void randomIsTheSameWhateverTheSplit() {
    Content c = Content.random(10_000, 7);
    byte[] whole = read(c, 0, 10_000);
    Random splits = new Random(1);
    for (int trial = 0; trial < 200; trial++) {
      int from = splits.nextInt(10_000);
      int len = splits.nextInt(10_000 - from + 1);
      byte[] part = new byte[len + 3];
      c.read(from, part, 3, len);
      assertArrayEquals(Arrays.copyOfRange(whole, from, from + len), Arrays.copyOfRange(part, 3, len + 3),
          "offset " + from + " len " + len);
    }
    assertArrayEquals(whole, read(Content.random(10_000, 7), 0, 10_000), "same seed, new instance");
  }

  @Test
  void randomDependsOnTheSeedAndLooksRandom() {
    byte[] a = read(Content.random(4096, 1), 0, 4096);
    byte[] b = read(Content.random(4096, 2), 0, 4096);
    int same = 0;
    for (int i = 0; i < a.length; i++) {
      same += a[i] == b[i] ? 1 : 0;
    }
    assertTrue(same < 64, "seeds 1 and 2 agree on " + same + " of 4096 bytes");
    assertFalse(Arrays.equals(Arrays.copyOfRange(a, 8, 4096), Arrays.copyOfRange(b, 0, 4088)), "not a shifted copy");
    long ones = 0;
    for (byte x : a) {
      ones += Integer.bitCount(x & 0xFF);
    }
    assertEquals(4096 * 4, ones, 600, "bit balance");
  }

  @Test
  void randomDoesNotDependOnTheSize() {
    assertArrayEquals(read(Content.random(100, 9), 50, 50), read(Content.random(1L << 40, 9), 50, 50));
  }

  @Test
  void sha256MatchesTheStreamedBytes() throws Exception {
    Content c = Content.random(300_001, 3);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    c.writeTo(out);
    assertEquals(300_001, out.size());
    assertArrayEquals(read(c, 0, 300_001), out.toByteArray());
    byte[] expected = MessageDigest.getInstance("SHA-256").digest(out.toByteArray());
    assertArrayEquals(expected, c.sha256());
    assertArrayEquals(expected, c.sha256(), "cached value");
    c.sha256()[0] ^= 1;
    assertArrayEquals(expected, c.sha256(), "callers get a copy");
    assertEquals(java.util.HexFormat.of().formatHex(expected), c.sha256Hex());
  }

  @Test
  void ofCopiesTheArray() {
    byte[] bytes = {1, 2, 3, 4};
    Content c = Content.of(bytes);
    bytes[0] = 9;
    assertEquals(4, c.size());
    assertArrayEquals(new byte[] {2, 3}, read(c, 1, 2));
    assertArrayEquals(new byte[] {1, 2, 3, 4}, read(c, 0, 4));
  }

  @Test
  void readChecksBounds() {
    Content c = Content.random(10, 0);
    assertThrows(IndexOutOfBoundsException.class, () -> read(c, 5, 6));
    assertThrows(IndexOutOfBoundsException.class, () -> read(c, -1, 1));
    assertThrows(IndexOutOfBoundsException.class, () -> c.read(0, new byte[4], 2, 3));
    assertThrows(IllegalArgumentException.class, () -> Content.random(-1, 0));
    assertEquals(0, read(c, 10, 0).length);
  }

  @Test
  void randomIsFast() {
    Content c = Content.random(1L << 30, 5);
    byte[] buf = new byte[16 * 1024];
    read(c, 0, 1 << 20); // warm up
    long start = System.nanoTime();
    long total = 256L << 20;
    for (long pos = 0; pos < total; pos += buf.length) {
      c.read(pos, buf, 0, buf.length);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    // ~1 GB/s expected; the bound is loose so a slow CI machine does not fail it, but a
    // per-byte or allocating implementation would.
    assertTrue(seconds < 1.5, "256 MiB took " + seconds + " s");
  }
}
