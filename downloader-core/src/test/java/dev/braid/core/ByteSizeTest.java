package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ByteSizeTest {
  private static final long K = 1024;

  @Test
  void unitsAreBinaryInEitherCaseWithOptionalBytesSuffix() {
    assertEquals(1000, ByteSize.parse("1000"));
    assertEquals(0, ByteSize.parse("0"));
    assertEquals(500 * K, ByteSize.parse("500K"));
    assertEquals(500 * K, ByteSize.parse("500k"));
    assertEquals(4 * K * K, ByteSize.parse("4M"));
    assertEquals(4 * K * K, ByteSize.parse("4m"));
    assertEquals(K * K * K, ByteSize.parse("1G"));
    assertEquals(3 * K * K * K * K, ByteSize.parse("3t"));
    assertEquals(4 * K * K, ByteSize.parse("4MB"));
    assertEquals(4 * K * K, ByteSize.parse("4MiB"));
    assertEquals(4 * K * K, ByteSize.parse("4 mib"));
    assertEquals(12, ByteSize.parse("12B"));
    assertEquals(5, ByteSize.parse(" +5 "));
  }

  @Test
  void decimalsAreExactAndDropAFractionOfAByte() {
    assertEquals(1536 * K, ByteSize.parse("1.5M"));
    assertEquals(512, ByteSize.parse(".5K"));
    assertEquals(2 * K, ByteSize.parse("2.K"));
    assertEquals(307, ByteSize.parse("0.3K"));
    assertEquals(1, ByteSize.parse("1.9"));
    // a double would round this plain count to an even neighbour
    assertEquals(9007199254740993L, ByteSize.parse("9007199254740993"));
  }

  @Test
  void theLargestSizeIsTakenAndOneMoreIsRefused() {
    assertEquals(Long.MAX_VALUE, ByteSize.parse(Long.toString(Long.MAX_VALUE)));
    assertTooLarge("9223372036854775808");
    assertTooLarge("8388608T");
    assertTooLarge("8388608.5T");
    assertEquals(Long.MAX_VALUE, ByteSize.parse("8388607.99999999999999999999T"));
    assertTooLarge("1" + "0".repeat(400) + "K");
    assertEquals(8388607 * K * K * K * K, ByteSize.parse("8388607T"));
  }

  @Test
  void negativeEmptyAndOtherFormsAreRefusedWithTheTextQuoted() {
    IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> ByteSize.parse("-5M"));
    assertTrue(negative.getMessage().contains("'-5M' is negative"), negative.getMessage());
    for (String bad : new String[] {"", "  ", "fast", "K", "5X", "5KK", "5 K B", "1e3", "0x10", "2d", "1.5f", "NaN",
        "Infinity", "5iB", "1,5M", "--5", "5-", "5 5", "٣"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ByteSize.parse(bad), bad);
      assertTrue(e.getMessage().startsWith("'" + bad + "' is not a number of bytes"), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> ByteSize.parse(null));
  }

  @Test
  void formatUsesTheLargestExactUnitAndReadsBack() {
    assertEquals("0", ByteSize.format(0));
    assertEquals("1000", ByteSize.format(1000));
    assertEquals("1K", ByteSize.format(K));
    assertEquals("1536K", ByteSize.format(1536 * K));
    assertEquals("20M", ByteSize.format(20 * K * K));
    assertEquals("2G", ByteSize.format(2 * K * K * K));
    assertEquals("1024T", ByteSize.format(K * K * K * K * K));
    for (long v : new long[] {0, 1, 1023, K, 1536 * K, 3L << 40, Long.MAX_VALUE, Long.MAX_VALUE - 1023}) {
      assertEquals(v, ByteSize.parse(ByteSize.format(v)));
    }
    assertThrows(IllegalArgumentException.class, () -> ByteSize.format(-1));
  }

  private static void assertTooLarge(String text) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ByteSize.parse(text), text);
    assertTrue(e.getMessage().contains("more than the largest size"), e.getMessage());
  }
}
