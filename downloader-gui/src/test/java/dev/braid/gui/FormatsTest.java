package dev.braid.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FormatsTest {
  @Test
  void sizesUseBinaryUnitsWithOneDecimalBelowAHundred() {
    assertEquals("0 B", Formats.bytes(0));
    assertEquals("1023 B", Formats.bytes(1023));
    assertEquals("1.0 KiB", Formats.bytes(1024));
    assertEquals("1.5 MiB", Formats.bytes(3 << 19));
    assertEquals("256 MiB", Formats.bytes(256L << 20));
    assertEquals("—", Formats.bytes(-1));
  }

  @Test
  void etaShowsTheTwoLargestParts() {
    assertEquals("42s", Formats.eta(Duration.ofSeconds(42)));
    assertEquals("3m 05s", Formats.eta(Duration.ofSeconds(185)));
    assertEquals("1h 02m", Formats.eta(Duration.ofSeconds(3720)));
    assertEquals("—", Formats.eta(null));
  }

  @Test
  void ratesParseAsTheCliWritesThemAndRoundTrip() {
    assertEquals(0, Formats.parseRate("unlimited"));
    assertEquals(0, Formats.parseRate(" "));
    assertEquals(500 * 1024, Formats.parseRate("500K"));
    assertEquals(4 << 20, Formats.parseRate("4m"));
    assertEquals(4 << 20, Formats.parseRate("4 MiB/s"));
    assertEquals(1536 * 1024, Formats.parseRate("1.5M"));
    assertEquals(1000, Formats.parseRate("1000"));
    for (long v : new long[] {0, 1000, 512 * 1024, 4 << 20, 1L << 30}) {
      assertEquals(v, Formats.parseRate(Formats.rate(v)));
    }
    assertEquals("1T", Formats.rate(1L << 40));
    assertEquals(2 << 10, Formats.parseRate("2k/S"));
    IllegalArgumentException fast = assertThrows(IllegalArgumentException.class, () -> Formats.parseRate("fast"));
    assertTrue(fast.getMessage().startsWith("Not a speed: 'fast' is not a number of bytes"), fast.getMessage());
    IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> Formats.parseRate("-5M"));
    assertTrue(negative.getMessage().contains("'-5M' is negative"), negative.getMessage());
  }
}
