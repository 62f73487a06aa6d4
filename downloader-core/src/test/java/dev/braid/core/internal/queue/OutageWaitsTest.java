package dev.braid.core.internal.queue;

import dev.braid.core.FailureDetail;
import dev.braid.core.HttpStatusException;
import dev.braid.core.IntegrityException;
import dev.braid.core.LocalFileException;
import dev.braid.core.NetworkException;
import dev.braid.core.OutageRetry;
import dev.braid.core.ProxyAuthenticationException;
import dev.braid.core.RedirectRefusedException;
import dev.braid.core.RemoteChangedException;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.store.EntryRetry;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The queue's rule for a failed run, on a clock the test moves and with the jitter's draw fixed. */
class OutageWaitsTest {
  private static final Instant T0 = Instant.parse("2026-12-05T12:00:00Z");
  private static final OutageRetry SHORT = OutageRetry.DEFAULT.withFirstWait(Duration.ofSeconds(1))
      .withMaxWait(Duration.ofSeconds(8)).withRetryFor(Duration.ofMinutes(1));
  private static final Throwable REFUSED = new NetworkException("connection refused", new ConnectException("refused"));

  /** The jitter draws its whole range: each wait is the undrawn one. */
  private static OutageWaits at(Instant now, OutageRetry policy) {
    return new OutageWaits(Clock.fixed(now, ZoneOffset.UTC), n -> n, policy);
  }

  @Test
  void waitsDoubleFromTheFirstUpToTheLongestWithJitterInTheUpperHalf() {
    OutageWaits full = at(T0, SHORT);
    assertEquals(Duration.ofSeconds(1), full.wait(SHORT, 1, null));
    assertEquals(Duration.ofSeconds(2), full.wait(SHORT, 2, null));
    assertEquals(Duration.ofSeconds(4), full.wait(SHORT, 3, null));
    assertEquals(Duration.ofSeconds(8), full.wait(SHORT, 4, null));
    assertEquals(Duration.ofSeconds(8), full.wait(SHORT, 40, null), "capped, and no overflow after many failures");
    OutageWaits none = new OutageWaits(Clock.fixed(T0, ZoneOffset.UTC), n -> 0, SHORT);
    assertEquals(Duration.ofMillis(2000), none.wait(SHORT, 3, null), "the lowest draw is half the wait");
  }

  @Test
  void aLongerRetryAfterWinsAShorterOneDoesNot() {
    OutageWaits w = at(T0, SHORT);
    assertEquals(Duration.ofSeconds(30), w.wait(SHORT, 1, Duration.ofSeconds(30)));
    assertEquals(Duration.ofSeconds(4), w.wait(SHORT, 3, Duration.ofSeconds(1)));
    Optional<EntryRetry> r = w.after(new HttpStatusException(503, "HTTP 503", Duration.ofSeconds(20)), EntryRetry.NONE, false, null);
    assertEquals(T0.plusSeconds(20).toEpochMilli(), r.orElseThrow().atMillis(), "a 503's Retry-After sets the next try");
  }

  @Test
  void aStreakCountsOnFromTheStoredStateAndGivesUpOnceItsTimeHasPassed() {
    EntryRetry first = at(T0, SHORT).after(REFUSED, EntryRetry.NONE, false, null).orElseThrow();
    assertEquals(new EntryRetry(T0.plusSeconds(1).toEpochMilli(), 1, T0.toEpochMilli()), first);
    Instant later = T0.plusSeconds(30);
    EntryRetry second = at(later, SHORT).after(REFUSED, first, false, null).orElseThrow();
    assertEquals(2, second.failures());
    assertEquals(T0.toEpochMilli(), second.sinceMillis(), "the streak's start stays");
    assertEquals(later.plusSeconds(2).toEpochMilli(), second.atMillis());
    assertTrue(at(T0.plusSeconds(60), SHORT).after(REFUSED, second, false, null).isEmpty(), "a minute after the first failure it fails");
  }

  @Test
  void aRunThatMovedForwardStartsANewStreak() {
    EntryRetry old = new EntryRetry(1, 7, T0.minusSeconds(3600).toEpochMilli());
    EntryRetry r = at(T0, SHORT).after(REFUSED, old, true, null).orElseThrow();
    assertEquals(1, r.failures());
    assertEquals(T0.toEpochMilli(), r.sinceMillis());
  }

  @Test
  void maxTriesCountsRunsAndOneTryOrNoneNeverWaits() {
    OutageRetry three = SHORT.withMaxTries(3);
    EntryRetry one = at(T0, three).after(REFUSED, EntryRetry.NONE, false, null).orElseThrow();
    EntryRetry two = at(T0, three).after(REFUSED, one, false, null).orElseThrow();
    assertTrue(at(T0.plusSeconds(86_400), three).after(REFUSED, two, false, null).isEmpty(), "the third failed try ends it");
    assertTrue(at(T0.plusSeconds(86_400), SHORT.withMaxTries(0)).after(REFUSED, new EntryRetry(1, 1000, 1), false, null).isPresent(),
        "0: no bound");
    assertTrue(at(T0, OutageRetry.NONE).after(REFUSED, EntryRetry.NONE, false, null).isEmpty());
    assertTrue(at(T0, SHORT.withRetryFor(Duration.ZERO)).after(REFUSED, EntryRetry.NONE, false, null).isEmpty());
    assertTrue(at(T0, OutageRetry.NONE).after(REFUSED, EntryRetry.NONE, false, SHORT).isPresent(), "the download's own policy wins");
  }

  @Test
  void onlyPassingFailuresWait() {
    OutageWaits w = at(T0, SHORT);
    for (Throwable passing : new Throwable[] {REFUSED, new NetworkException("reset", new IOException("Connection reset")),
        new NetworkException("no such host", new UnknownHostException("x")), new HttpStatusException(500, "500"),
        new HttpStatusException(502, "502"), new HttpStatusException(503, "503"), new HttpStatusException(504, "504"),
        new HttpStatusException(429, "429"), new HttpStatusException(408, "408")}) {
      assertTrue(w.after(passing, EntryRetry.NONE, false, null).isPresent(), passing.toString());
    }
    for (Throwable permanent : new Throwable[] {new HttpStatusException(404, "404"), new HttpStatusException(410, "410"),
        new HttpStatusException(401, "401"), new HttpStatusException(403, "403"), new HttpStatusException(501, "501"),
        new IntegrityException("checksum", null, FailureDetail.CHECKSUM),
        new LocalFileException("disk full", null, FailureDetail.DISK_FULL), new RemoteChangedException("changed"),
        new ProxyAuthenticationException("proxy refused the credentials", null), new RedirectRefusedException("loop", null),
        new NetworkException("past its deadline", null, FailureDetail.DEADLINE), new IllegalStateException("bug")}) {
      assertFalse(w.after(permanent, EntryRetry.NONE, false, null).isPresent(), permanent.toString());
    }
  }

  @Test
  void aPolicyChecksItsArgumentsAndSurvivesTheQueuesText() {
    assertThrows(IllegalArgumentException.class, () -> SHORT.withFirstWait(Duration.ZERO));
    assertThrows(IllegalArgumentException.class, () -> SHORT.withMaxWait(Duration.ofMillis(10)));
    assertThrows(IllegalArgumentException.class, () -> SHORT.withRetryFor(Duration.ofSeconds(-1)));
    assertThrows(IllegalArgumentException.class, () -> SHORT.withMaxTries(-1));
    assertEquals(Duration.ofMinutes(10), SHORT.withFirstWait(Duration.ofMinutes(10)).maxWait(), "the longest wait follows a longer first");
    for (OutageRetry p : new OutageRetry[] {OutageRetry.DEFAULT, OutageRetry.NONE, SHORT, SHORT.withMaxTries(4)}) {
      assertEquals(p, OutageRetry.parse(p.text()));
    }
    assertEquals(Duration.ofHours(1), OutageRetry.DEFAULT.retryFor().orElseThrow(), "the default waits an hour");
    assertThrows(IllegalArgumentException.class, () -> OutageRetry.parse("1,2"));
  }
}
