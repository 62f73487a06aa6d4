package dev.braid.core.internal.transfer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.store.HostMemory;
import java.time.Duration;
import java.util.Optional;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

class ConnectionControllerTest {
  private static final long TICK = 100_000_000L;

  /** Runs the controller against a link whose throughput is {@code rate(connections)} for {@code seconds}. */
  private static ConnectionController run(ConnectionController c, IntToDoubleFunction rate, double seconds) {
    long now = 0;
    double bytes = 0;
    for (long t = 0; t < seconds * 1e9; t += TICK) {
      now += TICK;
      bytes += rate.applyAsDouble(c.target()) * TICK / 1e9;
      c.sample(now, (long) bytes, c.target());
    }
    return c;
  }

  @Test
  void perConnectionLimitedServerRampsToTheCap() {
    ConnectionController c = run(new ConnectionController(4, 16, false, 0), n -> n * 4e6, 10);
    assertEquals(16, c.target());
  }

  @Test
  void onALongPathEachStepSettlesAndMeasuresForRoundTripsNotMilliseconds() {
    assertEquals(750_000_000L, firstDecisionAt(new ConnectionController(4, 16, false, 0)));
    // 100 ms round trips: 4 to settle and 8 to measure
    assertEquals(1_200_000_000L, firstDecisionAt(new ConnectionController(4, 16, false, 0, 100_000_000L)));
    // a loopback round trip changes nothing
    assertEquals(750_000_000L, firstDecisionAt(new ConnectionController(4, 16, false, 0, 100_000L)));
  }

  private static long firstDecisionAt(ConnectionController c) {
    long bytes = 0;
    for (long now = 50_000_000L; now < 5_000_000_000L; now += 50_000_000L) {
      bytes += 1_000_000;
      if (c.sample(now, bytes, c.target()) != null) {
        return now;
      }
    }
    return -1;
  }

  @Test
  void aFlatStepHolds() {
    // 8 connections fill the link; the step after them adds nothing and is kept, not undone
    ConnectionController c = run(new ConnectionController(4, 16, false, 0), n -> Math.min(n, 8) * 10e6, 10);
    assertEquals(16, c.target());
    ConnectionController flat = run(new ConnectionController(4, 16, false, 0), n -> 50e6, 10);
    assertEquals(8, flat.target(), "one step to find out, then hold");
  }

  @Test
  void aStepThatMakesItWorseIsUndone() {
    // beyond 8 connections the server slows down for everyone
    ConnectionController c = run(new ConnectionController(4, 16, false, 0), n -> n <= 8 ? n * 10e6 : 40e6, 10);
    assertEquals(8, c.target());
  }

  @Test
  void aRefusalBecomesTheLimitAndStopsTheRamp() {
    ConnectionController c = new ConnectionController(8, 16, false, 0);
    ConnectionController.Decision d = c.refused(5, 0);
    assertNotNull(d);
    assertEquals(5, d.to());
    assertTrue(d.reason().contains("server limit"), d.reason());
    assertTrue(c.serverLimited());
    run(c, n -> n * 4e6, 10);
    assertEquals(5, c.target());
  }

  @Test
  void aPinnedCountNeverMovesButStillRespectsARefusal() {
    ConnectionController c = run(new ConnectionController(6, 6, true, 0), n -> n * 4e6, 5);
    assertEquals(6, c.target());
    c.refused(3, 0);
    assertEquals(3, c.target());
  }

  @Test
  void withoutWorkForEveryConnectionThereIsNothingToLearn() {
    ConnectionController c = new ConnectionController(4, 16, false, 0);
    long now = 0;
    for (int i = 1; i <= 30; i++) {
      now += TICK;
      assertNull(c.sample(now, i * 1_000_000L, 2));
    }
    assertEquals(4, c.target());
    assertFalse(c.learned(), "no window was measured with every connection busy");
  }

  @Test
  void aMeasuredWindowOrARefusalIsWorthRemembering() {
    ConnectionController c = new ConnectionController(4, 16, false, 0);
    assertFalse(c.learned());
    run(c, n -> n * 4e6, 10);
    assertTrue(c.learned());
    ConnectionController refused = new ConnectionController(4, 16, false, 0);
    refused.refused(3, 0);
    assertTrue(refused.learned());
  }

  @Test
  void aNewHostOnALongPathStartsWithMoreConnections() {
    long now = System.currentTimeMillis();
    assertEquals(4, HostPolicy.of(Optional.empty(), 16, now, 200_000L).start());
    assertEquals(8, HostPolicy.of(Optional.empty(), 16, now, 40_000_000L).start());
    assertEquals(16, HostPolicy.of(Optional.empty(), 16, now, 80_000_000L).start());
    assertEquals(6, HostPolicy.of(Optional.empty(), 6, now, 80_000_000L).start(), "never above the cap");
    // what a host showed wins over the path's length
    assertEquals(4, HostPolicy.of(Optional.of(new HostMemory("h:80", 4, 4, 1e6, now - 1000)), 16, now, 80_000_000L).start());
  }

  @Test
  void hostMemoryStartsWhereTheLastDownloadSettledAndItsLimitDecays() {
    long now = Duration.ofDays(30).toMillis();
    HostPolicy fresh = HostPolicy.of(Optional.empty(), 16, now, 0);
    assertEquals(4, fresh.start());
    assertEquals(16, fresh.cap());
    HostPolicy limited = HostPolicy.of(Optional.of(new HostMemory("h:80", 4, 4, 1e6, now - 1000)), 16, now, 0);
    assertEquals(4, limited.start());
    assertEquals(4, limited.cap());
    HostPolicy decayed = HostPolicy.of(Optional.of(new HostMemory("h:80", 4, 4, 1e6,
        now - Duration.ofHours(13).toMillis())), 16, now, 0);
    assertEquals(6, decayed.cap(), "one more connection per 6 hours");
    HostPolicy forgotten = HostPolicy.of(Optional.of(new HostMemory("h:80", 4, 4, 1e6,
        now - Duration.ofDays(8).toMillis())), 16, now, 0);
    assertEquals(16, forgotten.cap());
    HostPolicy good = HostPolicy.of(Optional.of(new HostMemory("h:80", 0, 12, 1e6, now - 1000)), 16, now, 0);
    assertEquals(12, good.start());
    assertEquals(16, good.cap());
  }

  @Test
  void aWindowWithoutABytePausesTheRampInsteadOfBecomingItsBaseline() {
    ConnectionController c = new ConnectionController(4, 16, false, 0);
    long now = 0;
    long bytes = 0;
    java.util.List<ConnectionController.Decision> decisions = new java.util.ArrayList<>();
    for (int i = 0; i < 100; i++) {
      now += TICK;
      // the server sends nothing for the first 2 s, then 4 MB/s per connection
      if (now > 2_000_000_000L) {
        bytes += (long) (c.target() * 4e6 * TICK / 1e9);
      }
      ConnectionController.Decision d = c.sample(now, bytes, c.target());
      if (d != null) {
        decisions.add(d);
      }
    }
    assertFalse(decisions.isEmpty());
    assertTrue(decisions.stream().noneMatch(d -> d.reason().contains("NaN") || d.reason().contains("Infinity")),
        decisions.toString());
    assertEquals(16, c.target(), decisions.toString());
  }
}
