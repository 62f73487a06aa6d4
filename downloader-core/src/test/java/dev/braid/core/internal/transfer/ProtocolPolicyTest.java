package dev.braid.core.internal.transfer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.braid.core.internal.http.Protocol;
import dev.braid.store.ProtocolMemory;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProtocolPolicyTest {
  private static final long NOW = 10 * ProtocolPolicy.FORGET_REFUSAL.toMillis();
  private static final long FRESH = NOW - 1000;
  private static final long STALE = NOW - ProtocolPolicy.REMEASURE.toMillis() - 1000;

  private static ProtocolMemory h1(double rate, long at) {
    return new ProtocolMemory("h:443", "http/1.1", true, rate, at);
  }

  private static ProtocolMemory h2(double rate, long at) {
    return new ProtocolMemory("h:443", "h2", true, rate, at);
  }

  @Test
  void nothingKnownMeasuresHttp11First() {
    ProtocolPolicy p = ProtocolPolicy.of(List.of(), NOW);
    assertEquals(Protocol.HTTP_1_1, p.preferred());
    assertEquals(Protocol.HTTP_1_1, p.trial());
  }

  @Test
  void oneMeasuredTriesTheOther() {
    ProtocolPolicy p = ProtocolPolicy.of(List.of(h1(5e6, FRESH)), NOW);
    assertEquals(Protocol.HTTP_1_1, p.preferred());
    assertEquals(Protocol.HTTP_2, p.trial());
  }

  @Test
  void bothFreshKeepsTheFasterAndTriesNothing() {
    ProtocolPolicy p = ProtocolPolicy.of(List.of(h1(5e6, FRESH), h2(9e6, FRESH)), NOW);
    assertEquals(Protocol.HTTP_2, p.preferred());
    assertNull(p.trial());
    assertEquals(Protocol.HTTP_1_1, ProtocolPolicy.of(List.of(h1(9e6, FRESH), h2(5e6, FRESH)), NOW).preferred());
  }

  @Test
  void theSlowerIsMeasuredAgainOnceItsFigureIsStale() {
    ProtocolPolicy p = ProtocolPolicy.of(List.of(h1(5e6, STALE), h2(9e6, FRESH)), NOW);
    assertEquals(Protocol.HTTP_2, p.preferred(), "a stale figure still ranks");
    assertEquals(Protocol.HTTP_1_1, p.trial());
  }

  @Test
  void aFarSlowerVersionIsMeasuredAgainOnlyAfterAWeek() {
    // measured on a lossy path: HTTP/2's one connection 0.4 MiB/s, HTTP/1.1's many 7.1
    ProtocolPolicy p = ProtocolPolicy.of(List.of(h1(7.1e6, FRESH), h2(0.4e6, STALE)), NOW);
    assertEquals(Protocol.HTTP_1_1, p.preferred());
    assertNull(p.trial(), "a day old is not old enough for a version at a twentieth of the other");
    long weekOld = NOW - ProtocolPolicy.REMEASURE_FAR_SLOWER.toMillis() - 1000;
    assertEquals(Protocol.HTTP_2, ProtocolPolicy.of(List.of(h1(7.1e6, FRESH), h2(0.4e6, weekOld)), NOW).trial());
    assertEquals(Protocol.HTTP_2, ProtocolPolicy.of(List.of(h1(7.1e6, FRESH), h2(5e6, STALE)), NOW).trial(),
        "a close second is measured again after a day");
  }

  @Test
  void aRefusalOfHttp2HoldsForAWeek() {
    ProtocolMemory refused = new ProtocolMemory("h:443", "h2", false, 0, FRESH);
    ProtocolPolicy p = ProtocolPolicy.of(List.of(h1(5e6, STALE), refused), NOW);
    assertEquals(Protocol.HTTP_1_1, p.preferred());
    assertNull(p.trial(), "no choice to measure for");
    long old = NOW - ProtocolPolicy.FORGET_REFUSAL.toMillis() - 1000;
    ProtocolPolicy later = ProtocolPolicy.of(List.of(h1(5e6, FRESH), new ProtocolMemory("h:443", "h2", false, 0, old)), NOW);
    assertEquals(Protocol.HTTP_2, later.trial(), "asked again after a week");
  }
}
