package dev.braid.core.internal.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.time.Ticker;
import dev.braid.store.SegmentRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

class SegmentTableTest {
  @Test
  void idleWorkersSplitTheLargestRemainderAtItsMidpoint() {
    SegmentTable t = SegmentTable.fresh(1000, true, 10);
    Segment a = t.assignAt(0);
    assertNotNull(a);
    Segment b = t.next(0);
    assertEquals(500, b.start());
    assertEquals(500, t.remaining(a));
    Segment c = t.next(0);
    // both halves are 500 long; the first found is split
    assertEquals(250, c.start());
    assertEquals(250, t.remaining(a));
    assertEquals(500, t.remaining(b));
    Segment d = t.next(0);
    assertEquals(750, d.start());
    assertEquals(250, t.remaining(b));
  }

  @Test
  void aSplitNeverCutsBelowBytesTheOwnerHasClaimed() {
    SegmentTable t = SegmentTable.fresh(100, true, 1);
    Segment a = t.assignAt(0);
    assertEquals(60, t.claim(a, 60));
    Segment b = t.next(0);
    // the remainder after the claim is [60, 100): its midpoint is 80
    assertEquals(80, b.start());
    t.advance(a, 60);
    assertEquals(20, t.remaining(a));
  }

  @Test
  void theOwnerStopsExactlyAtAnEndMovedBySplit() {
    SegmentTable t = SegmentTable.fresh(100, true, 1);
    Segment a = t.assignAt(0);
    t.advance(a, t.claim(a, 10));
    Segment b = t.next(0);
    assertEquals(55, b.start());
    assertEquals(45, t.claim(a, 64));
  }

  @Test
  void aSplitLandsBeyondTheOwnersRequestRatherThanCuttingIt() {
    SegmentTable t = SegmentTable.fresh(100, true, 10);
    Segment a = t.assignAt(0);
    assertEquals(80, t.requestEnd(a, 80));
    Segment b = t.next(0);
    assertEquals(80, b.start(), "the midpoint 50 is inside the request [0, 80): split at its end");
    assertEquals(80, t.remainingInRequest(a));
  }

  @Test
  void thePartBeyondARequestIsTakenEvenWhenTheRestIsTooSmallToHalve() {
    SegmentTable t = SegmentTable.fresh(50, true, 30);
    Segment a = t.assignAt(0);
    assertNull(t.next(0), "nothing in flight: 50 bytes cannot become two pieces of 30");
    t.requestEnd(a, 10);
    Segment b = t.next(Long.MAX_VALUE);
    assertEquals(10, b.start(), "the 40 bytes beyond the request [0, 10) are a piece of their own");
    assertEquals(10, t.remainingInRequest(a));
  }

  @Test
  void aSplitCutsIntoARequestOnlyWhenTheOwnerWouldTakeLongToGetThere() {
    SegmentTable t = SegmentTable.fresh(100, true, 10);
    Segment a = t.assignAt(0);
    t.requestEnd(a, 95);
    // only 5 bytes lie beyond the request: a split has to cut it, taking [50, 100)
    assertNull(t.next(60), "50 bytes are less than a second of this connection's throughput");
    assertFalse(t.hasWork(60));
    assertTrue(t.hasWork(40));
    Segment b = t.next(40);
    assertEquals(50, b.start());
    assertEquals(50, t.remainingInRequest(a), "the owner's request is cut at the new end");
  }

  /** 1.5 MiB under a 1 MiB minimum split, on a clock the test moves; its one segment owned and requested to the end. */
  private static final class Tail {
    long now;
    final SegmentTable t = SegmentTable.fresh(1536 << 10, true, 1 << 20, () -> now);
    final Segment a = t.assignAt(0);

    Tail() {
      t.requestEnd(a, Long.MAX_VALUE);
    }

    void wrote(int bytes) {
      t.advance(a, t.claim(a, bytes));
    }
  }

  @Test
  void aSlowOwnersTailIsHalvedEvenBelowTwiceTheMinimum() {
    Tail tail = new Tail();
    SegmentTable t = tail.t;
    tail.wrote(256 << 10);
    tail.now = 400_000_000L;
    assertNull(t.next(0), "0.4 s into the request its pace is not judged yet");
    tail.now = 2_000_000_000L;
    // 256 KiB in 2 s: the 1.25 MiB left would take 10 s
    assertFalse(t.hasWork(SegmentTable.NO_CUT), "no cut at all (a rate limit, nothing measured yet)");
    assertTrue(t.hasWork(1 << 20), "its slow pace, not the thief's speed, bounds what the cut wastes");
    Segment b = t.next(1 << 20);
    assertEquals((256 << 10) + (640 << 10), b.start());
    assertEquals(640 << 10, t.remainingInRequest(tail.a), "the owner's request is cut at the new end");
  }

  @Test
  void aFastOwnersTailIsLeftAloneAndAStalledOnesIsTaken() {
    Tail tail = new Tail();
    SegmentTable t = tail.t;
    tail.wrote(1 << 20);
    tail.now = 600_000_000L;
    assertNull(t.next(0), "1 MiB in 0.6 s: the 512 KiB left take 0.3 s");
    t.requestEnd(tail.a, Long.MAX_VALUE);
    tail.now = 1_200_000_000L;
    Segment b = t.next(0);
    assertNotNull(b, "a new request that brought nothing in 0.6 s is a stall");
    assertEquals((1 << 20) + (256 << 10), b.start());
    tail.wrote(200 << 10);
    tail.now = 60_000_000_000L;
    assertNull(t.next(0), "56 KiB left at any pace: half of it is not worth a request");
  }

  @Test
  void anOwnerThatSlowsDownMidRequestIsJudgedByItsRecentPace() {
    Tail tail = new Tail();
    SegmentTable t = tail.t;
    tail.now = 100_000_000L;
    tail.wrote(1 << 20);
    tail.now = 1_000_000_000L;
    tail.wrote(10 << 10);
    tail.now = 1_200_000_000L;
    assertNull(t.next(0), "the last full window ran at ~1 MiB/s: the 502 KiB left take half a second");
    tail.now = 1_600_000_000L;
    // nothing for 0.6 s; the request's average (0.63 MiB/s) would still call it fast
    assertNotNull(t.next(0));
  }

  @Test
  void noSplitBelowTheMinimumOrWhenNotSplittable() {
    SegmentTable small = SegmentTable.fresh(100, true, 60);
    small.assignAt(0);
    assertNull(small.next(0));
    SegmentTable noRanges = SegmentTable.fresh(1000, false, 1);
    noRanges.assignAt(0);
    assertNull(noRanges.next(0));
  }

  @Test
  void releasedSegmentsAreTakenBeforeSplitting() {
    SegmentTable t = SegmentTable.fresh(1000, true, 1);
    Segment a = t.assignAt(0);
    t.advance(a, t.claim(a, 100));
    t.release(a);
    assertTrue(t.hasWork(Long.MAX_VALUE), "an orphan is work even when nothing may be cut");
    assertSame(a, t.next(0));
    assertEquals(100, t.position(a));
  }

  @Test
  void snapshotMergesFinishedNeighboursAndReportsOnlyWrittenBytes() {
    SegmentTable t = SegmentTable.fresh(400, true, 1);
    Segment a = t.assignAt(0);
    Segment b = t.next(0);
    Segment c = t.next(0);
    t.advance(a, t.claim(a, 100));
    t.advance(c, t.claim(c, 100));
    t.claim(b, 50);
    // a = [0, 100) and c = [100, 200) finished; b = [200, 400) claimed 50 bytes, its write has not returned
    assertEquals(List.of(new SegmentRecord(0, 200, 200), new SegmentRecord(200, 400, 0)), t.snapshot());
    t.advance(b, 50);
    t.advance(b, t.claim(b, 150));
    assertEquals(List.of(new SegmentRecord(0, 400, 400)), t.snapshot());
    assertTrue(t.complete());
    assertEquals(400, t.doneBytes());
  }

  @Test
  void restoreContinuesWhereTheRecordStopped() {
    SegmentTable t = SegmentTable.restore(List.of(new SegmentRecord(0, 50, 50), new SegmentRecord(50, 100, 20)), 1, Ticker.SYSTEM);
    assertEquals(70, t.doneBytes());
    Segment s = t.next(0);
    assertEquals(50, s.start());
    assertEquals(70, t.position(s));
    assertFalse(t.complete());
  }

  @Test
  void unknownLengthEndsWhereTheBodyEnds() {
    SegmentTable t = SegmentTable.fresh(-1, true, 1);
    Segment s = t.assignAt(0);
    assertTrue(t.openEnded(s));
    t.advance(s, t.claim(s, 1234));
    t.endAtPosition(s);
    assertTrue(t.complete());
    assertEquals(List.of(new SegmentRecord(0, 1234, 1234)), t.snapshot());
  }
}
