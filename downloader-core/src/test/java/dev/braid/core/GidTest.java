package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** aria2's gids: 16 lower-case hex digits, zero-padded, read back only whole. */
class GidTest {
  @Test
  void aGidIsSixteenLowerCaseHexDigitsAndReadsBackAsItsId() {
    assertEquals("0000000000000001", Gid.of(1));
    assertEquals("00000000000000ff", Gid.of(255));
    assertEquals("7fffffffffffffff", Gid.of(Long.MAX_VALUE));
    for (long id : new long[] {1, 42, 1_000_000, Long.MAX_VALUE}) {
      assertEquals(id, Gid.parse(Gid.of(id)));
    }
    assertThrows(IllegalArgumentException.class, () -> Gid.parse(null));
    assertThrows(IllegalArgumentException.class, () -> Gid.parse("ff"));
    assertThrows(IllegalArgumentException.class, () -> Gid.parse("000000000000000g"));
    assertThrows(IllegalArgumentException.class, () -> Gid.parse("+00000000000000f"));
  }
}
