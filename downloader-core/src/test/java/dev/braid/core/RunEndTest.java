package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.store.DownloadState;
import dev.braid.testserver.Content;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The end of a run as its listeners and its waiters see it: whoever hears it finds the result
 * there and the download stopped, and a resume then, or right after a pause, takes effect.
 */
class RunEndTest extends DownloadHarness {

  @Test
  void aListenerHearingARunsEndFindsItsResultAndTheDownloadStopped() throws Exception {
    braid.close();
    braid = Braid.builder().stateDatabase(dir.resolve("state.db")).maxActiveDownloads(3).build();
    int n = 150;
    List<String> early = new CopyOnWriteArrayList<>();
    AtomicInteger ends = new AtomicInteger();
    AtomicInteger active = new AtomicInteger();
    AtomicInteger peak = new AtomicInteger();
    braid.listen(new DownloadListener() {
      @Override
      public void stateChanged(Download d, DownloadState s) {
        if (s == DownloadState.ACTIVE) {
          peak.accumulateAndGet(active.incrementAndGet(), Math::max);
        } else if (s == DownloadState.COMPLETED || s == DownloadState.FAILED) {
          active.decrementAndGet();
          if (!d.result().isDone() || braid.running().contains(d)) {
            early.add(d.id() + " " + s + " result done " + d.result().isDone() + ", running " + braid.running().contains(d));
          }
          ends.incrementAndGet();
        }
      }
    }, Duration.ofSeconds(1));
    List<Download> all = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      // one in ten fails: a failure's end is told as a completion's
      if (i % 10 == 3) {
        server.respond("/e" + i, 404);
      } else {
        server.serve("/e" + i, Content.random(3_000, 900 + i));
      }
      all.add(braid.submit(DownloadRequest.builder(server.url("/e" + i)).directory(dir).build()));
    }
    for (Download d : all) {
      d.result().handle((r, e) -> null).join();
    }
    awaitCondition(() -> ends.get() == n, () -> "ends heard: " + ends.get());
    assertEquals(List.of(), early, "ends told before their run let go of the download");
    assertTrue(peak.get() <= 3, "active at once: " + peak.get());
  }

  @Test
  void aResumeRightAfterAPauseTakesEffect() throws Exception {
    Content c = Content.random(2 << 20, 31);
    server.serve("/r.bin", c).rateLimitPerConnection(1 << 20);
    Download d = braid.submit(request("/r.bin", dir.resolve("r.bin")).connections(1).build());
    awaitProgress(d, 128 << 10);
    d.pause();
    // the run is still stopping its connection: the resume is kept for its end
    d.resume();
    DownloadResult r = await(d);
    assertEquals(c.sha256Hex(), sha256(r.file()));
    assertEquals(DownloadState.COMPLETED, d.state());
  }

  @Test
  void aPauseAfterAResumeOfAStoppingRunStands() throws Exception {
    server.serve("/s.bin", Content.random(2 << 20, 32)).rateLimitPerConnection(1 << 20);
    Download d = braid.submit(request("/s.bin", dir.resolve("s.bin")).connections(1).build());
    awaitProgress(d, 128 << 10);
    d.pause();
    d.resume();
    d.pause();
    CompletionException e = assertThrows(CompletionException.class, () -> d.result().join());
    assertInstanceOf(DownloadPausedException.class, e.getCause());
    assertEquals(DownloadState.PAUSED, d.state());
  }

  @Test
  void aListenerThatResumesOnHearingThePauseIsHeard() throws Exception {
    braid.close();
    braid = Braid.builder().stateDatabase(dir.resolve("state.db")).maxActiveDownloads(12).build();
    int n = 12;
    List<Download> all = new ArrayList<>();
    List<Content> contents = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Content c = Content.random(1536 << 10, 700 + i);
      contents.add(c);
      server.serve("/l" + i, c).rateLimitPerConnection(1 << 20);
      all.add(braid.submit(request("/l" + i, dir.resolve("l" + i)).connections(1).build()));
    }
    List<String> heard = new CopyOnWriteArrayList<>();
    Set<Long> resumed = ConcurrentHashMap.newKeySet();
    braid.listen(new DownloadListener() {
      @Override
      public void stateChanged(Download x, DownloadState s) {
        if (s == DownloadState.PAUSED && resumed.add(x.id())) {
          if (!x.result().isDone() || braid.running().contains(x)) {
            heard.add(x.id() + " result done " + x.result().isDone() + ", running " + braid.running().contains(x));
          }
          x.resume();
        }
      }
    }, Duration.ofSeconds(1));
    for (Download d : all) {
      awaitProgress(d, 64 << 10);
    }
    // a dozen runs end at once: a listener that hears one before it let go lost its resume
    all.forEach(Download::pause);
    awaitCondition(() -> all.stream().allMatch(d -> d.state() == DownloadState.COMPLETED),
        () -> all.stream().map(Download::toString).toList() + " " + heard);
    assertEquals(List.of(), heard, "pauses told before their run let go of the download");
    assertEquals(n, resumed.size(), "every pause heard");
    for (int i = 0; i < n; i++) {
      assertEquals(contents.get(i).sha256Hex(), sha256(await(all.get(i)).file()));
    }
  }

  @Test
  void aWaiterOnTheResultCanResumeAtOnce() throws Exception {
    Content c = Content.random(2 << 20, 34);
    server.serve("/w.bin", c).rateLimitPerConnection(1 << 20);
    Download d = braid.submit(request("/w.bin", dir.resolve("w.bin")).connections(1).build());
    awaitProgress(d, 128 << 10);
    // a dependent registered now runs on the run's own thread as the result completes
    d.result().whenComplete((r, e) -> d.resume());
    d.pause();
    awaitCondition(() -> d.state() == DownloadState.COMPLETED, () -> "state " + d.state());
    assertEquals(c.sha256Hex(), sha256(await(d).file()));
  }

  @Test
  void aCallerThatResumesDuringTheRunsEndWaitsForTheComingRun() throws Exception {
    Content c = Content.random(2 << 20, 35);
    server.serve("/n.bin", c).rateLimitPerConnection(1 << 20);
    Download d = braid.submit(request("/n.bin", dir.resolve("n.bin")).connections(1).build());
    awaitProgress(d, 128 << 10);
    // on the run's own thread, while its end completes the paused result: the result() a resume
    // leaves is the coming run's (it was the paused one, which a caller then joined at once)
    java.util.concurrent.atomic.AtomicReference<java.util.concurrent.CompletableFuture<DownloadResult>> next =
        new java.util.concurrent.atomic.AtomicReference<>();
    d.result().whenComplete((r, e) -> {
      d.resume();
      next.set(d.result());
    });
    d.pause();
    awaitCondition(() -> next.get() != null, () -> "resumed");
    DownloadResult r = next.get().get(20, java.util.concurrent.TimeUnit.SECONDS);
    assertEquals(c.sha256Hex(), sha256(r.file()));
  }

  /** Waits (bounded, 20 s) until {@code done} holds. */
  private static void awaitCondition(BooleanSupplier done, java.util.function.Supplier<String> what) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not reached: " + what.get());
      }
      Thread.sleep(10);
    }
  }
}
