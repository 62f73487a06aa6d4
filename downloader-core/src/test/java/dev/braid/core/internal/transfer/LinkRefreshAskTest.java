package dev.braid.core.internal.transfer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The bounds on asking a URL refresher: how often, how long, and which answers count. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LinkRefreshAskTest {
  private static final URI OLD = URI.create("https://cdn.example/f?sig=old");
  private static final URI NEW = URI.create("https://cdn.example/f?sig=new");

  @Test
  void aNewUrlIsGivenOnlyAsOftenAsAllowed() {
    LinkRefresh refresh = new LinkRefresh((expired, status) -> Optional.of(NEW), 1, Duration.ofSeconds(5));
    assertEquals(NEW, refresh.ask(OLD, 403).uri());
    LinkRefresh.Answer again = refresh.ask(OLD, 403);
    assertNull(again.uri());
    assertEquals("the URL refresher was asked 1 times already (the most for one download)", again.why());
  }

  @Test
  void theSameUrlOrNoneIsNoAnswer() {
    assertEquals("the URL refresher gave the same URL again",
        new LinkRefresh((expired, status) -> Optional.of(expired), 3, Duration.ofSeconds(5)).ask(OLD, 410).why());
    assertEquals("the URL refresher gave no new URL",
        new LinkRefresh((expired, status) -> Optional.empty(), 3, Duration.ofSeconds(5)).ask(OLD, 410).why());
  }

  @Test
  void aFailingRefresherIsSaidSo() {
    LinkRefresh.Answer a = new LinkRefresh((expired, status) -> {
      throw new IllegalStateException("token service down");
    }, 3, Duration.ofSeconds(5)).ask(OLD, 401);
    assertNull(a.uri());
    assertEquals("the URL refresher failed: token service down", a.why());
  }

  @Test
  void aHungRefresherIsInterruptedAtTheTimeout() throws Exception {
    CountDownLatch interrupted = new CountDownLatch(1);
    LinkRefresh refresh = new LinkRefresh((expired, status) -> {
      try {
        new CountDownLatch(1).await();
      } catch (InterruptedException e) {
        interrupted.countDown();
      }
      return Optional.of(NEW);
    }, 3, Duration.ofMillis(200));
    long start = System.nanoTime();
    LinkRefresh.Answer a = refresh.ask(OLD, 403);
    assertNull(a.uri());
    assertEquals("the URL refresher gave no answer within 0.2 s", a.why());
    assertTrue(System.nanoTime() - start < Duration.ofSeconds(5).toNanos());
    assertTrue(interrupted.await(5, TimeUnit.SECONDS), "the refresher's thread was interrupted");
  }
}
