package dev.braid.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SegmentMapLayoutTest {
  @Test
  void eachConnectionIsACaretAtItsWritePositionWithItsRemainderInFlight() {
    // 1000 bytes on 100 px: [0,500) done; [500,800) active at 600; [800,1000) waiting for a split
    List<SegmentView> segments = List.of(new SegmentView(0, 500, 500, false), new SegmentView(500, 800, 100, true),
        new SegmentView(800, 1000, 0, false));
    SegmentMapLayout.Layout l = SegmentMapLayout.layout(1000, 600, segments, 100);
    assertEquals(List.of(new SegmentMapLayout.Span(0, 50, SegmentMapLayout.Kind.DONE),
        new SegmentMapLayout.Span(50, 60, SegmentMapLayout.Kind.DONE),
        new SegmentMapLayout.Span(60, 80, SegmentMapLayout.Kind.IN_FLIGHT)), l.spans());
    assertEquals(List.of(60.0), l.carets());
    assertEquals(List.of(50.0, 80.0), l.boundaries());
  }

  @Test
  void withoutSegmentsTheDonePrefixIsFilledAndAnUnknownLengthDrawsNothing() {
    assertEquals(List.of(new SegmentMapLayout.Span(0, 25, SegmentMapLayout.Kind.DONE)),
        SegmentMapLayout.layout(400, 100, List.of(), 100).spans());
    assertTrue(SegmentMapLayout.layout(-1, 100, List.of(new SegmentView(0, 10, 5, true)), 100).spans().isEmpty());
  }

  @Test
  void aSegmentCannotClaimMoreThanItHolds() {
    assertThrows(IllegalArgumentException.class, () -> new SegmentView(10, 20, 11, true));
  }
}
