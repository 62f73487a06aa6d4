package dev.braid.core.internal.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class ContentRangeTest {
  @Test
  void parsesSatisfiedUnsatisfiedAndUnknownTotal() {
    assertEquals(new ContentRange(0, 99, 1000), ContentRange.parse("bytes 0-99/1000"));
    assertEquals(new ContentRange(5, 5, -1), ContentRange.parse("bytes 5-5/*"));
    assertEquals(new ContentRange(-1, -1, 0), ContentRange.parse("bytes */0"));
  }

  @Test
  void rejectsMalformedAndInconsistentRanges() {
    assertNull(ContentRange.parse(null));
    assertNull(ContentRange.parse("bytes 10-5/100"));
    assertNull(ContentRange.parse("bytes 0-100/100"));
    assertNull(ContentRange.parse("items 0-1/2"));
    assertNull(ContentRange.parse("bytes 0-99999999999999999999/1"));
  }
}
