package dev.braid.core.internal.http;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.braid.core.HostResolver;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CachingDnsResolverTest {
  private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
  private final AtomicLong now = new AtomicLong();
  private final AtomicInteger asked = new AtomicInteger();

  @Test
  void anAnswerIsReusedForItsTtlThenAskedAgain() throws Exception {
    CachingDnsResolver dns = resolver(host -> {
      asked.incrementAndGet();
      return new InetAddress[] {LOOPBACK};
    });
    assertArrayEquals(new InetAddress[] {LOOPBACK}, dns.resolve("files.test"));
    now.addAndGet(Duration.ofSeconds(59).toNanos());
    dns.resolve("FILES.test");
    assertEquals(1, asked.get(), "within the TTL, any case of the name");
    now.addAndGet(Duration.ofSeconds(2).toNanos());
    dns.resolve("files.test");
    assertEquals(2, asked.get(), "after the TTL");
    dns.resolve("other.test");
    assertEquals(3, asked.get(), "another name is its own entry");
  }

  @Test
  void aFailureIsRememberedBrieflyNotForTheWholeTtl() throws Exception {
    CachingDnsResolver dns = resolver(host -> {
      asked.incrementAndGet();
      throw new UnknownHostException(host);
    });
    assertThrows(UnknownHostException.class, () -> dns.resolve("typo.test"));
    assertThrows(UnknownHostException.class, () -> dns.resolve("typo.test"));
    assertEquals(1, asked.get());
    now.addAndGet(Duration.ofSeconds(6).toNanos());
    assertThrows(UnknownHostException.class, () -> dns.resolve("typo.test"));
    assertEquals(2, asked.get(), "the negative TTL (5 s) is over");
  }

  @Test
  void concurrentLookUpsOfOneNameAreMergedIntoOne() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CachingDnsResolver dns = resolver(host -> {
      asked.incrementAndGet();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return new InetAddress[] {LOOPBACK};
    });
    List<Thread> callers = new CopyOnWriteArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(8, r -> {
      Thread t = new Thread(r);
      callers.add(t);
      return t;
    });
    try {
      List<Future<InetAddress[]>> answers = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        answers.add(pool.submit(() -> dns.resolve("slow.test")));
      }
      // every caller reached the cache while the first look-up is still blocked: one waits for the
      // release, the others for its answer
      await().atMost(Duration.ofSeconds(10)).until(() -> callers.size() == 8
          && callers.stream().allMatch(t -> t.getState() == Thread.State.WAITING));
      release.countDown();
      for (Future<InetAddress[]> a : answers) {
        assertArrayEquals(new InetAddress[] {LOOPBACK}, a.get(10, TimeUnit.SECONDS));
      }
      assertEquals(1, asked.get());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void theCacheStaysWithinItsBoundAndAnExpiredAnswerIsAskedAgain() throws Exception {
    CachingDnsResolver dns = resolver(host -> {
      asked.incrementAndGet();
      return new InetAddress[] {LOOPBACK};
    });
    dns.resolve("old.test");
    now.addAndGet(Duration.ofSeconds(61).toNanos());
    for (int i = 0; i < 2 * CachingDnsResolver.MAX_HOSTS; i++) {
      dns.resolve("h" + i + ".test");
    }
    assertTrue(dns.cachedNames() <= CachingDnsResolver.MAX_HOSTS, "cached " + dns.cachedNames());
    int before = asked.get();
    dns.resolve("old.test");
    assertEquals(before + 1, asked.get(), "the expired answer was not reused");
  }

  private CachingDnsResolver resolver(HostResolver delegate) {
    return new CachingDnsResolver(delegate, Duration.ofSeconds(60), Duration.ofSeconds(5), now::get);
  }
}
