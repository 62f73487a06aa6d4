package dev.braid.testserver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RangeRequestTest {

  private static RangeRequest span(long first, long last) {
    return new RangeRequest.Span(first, last);
  }

  @Test
  void parsesTheThreeSingleRangeForms() {
    assertEquals(span(0, 9), RangeRequest.parse("bytes=0-9", 100));
    assertEquals(span(90, 99), RangeRequest.parse("bytes=90-", 100));
    assertEquals(span(80, 99), RangeRequest.parse("bytes=-20", 100));
    assertEquals(span(5, 5), RangeRequest.parse("Bytes= 5 - 5 ", 100));
  }

  @Test
  void clampsToTheContent() {
    assertEquals(span(50, 99), RangeRequest.parse("bytes=50-1000", 100));
    assertEquals(span(0, 99), RangeRequest.parse("bytes=-1000", 100));
  }

  @Test
  void unsatisfiable() {
    assertEquals(RangeRequest.UNSATISFIABLE, RangeRequest.parse("bytes=100-", 100));
    assertEquals(RangeRequest.UNSATISFIABLE, RangeRequest.parse("bytes=100-200", 100));
    assertEquals(RangeRequest.UNSATISFIABLE, RangeRequest.parse("bytes=-0", 100));
    assertEquals(RangeRequest.UNSATISFIABLE, RangeRequest.parse("bytes=0-", 0));
    assertEquals(RangeRequest.UNSATISFIABLE, RangeRequest.parse("bytes=-5", 0));
  }

  @Test
  void anythingElseMeansTheWholeContent() {
    for (String header : new String[] {
        null, "", "bytes=", "bytes=-", "bytes=5-4", "bytes=0-1,5-6", "items=0-5", "bytes=+1-5", "bytes=a-b",
        "bytes=1-2-3", "bytes=99999999999999999999-"}) {
      assertEquals(RangeRequest.WHOLE, RangeRequest.parse(header, 100), header);
    }
  }
}
