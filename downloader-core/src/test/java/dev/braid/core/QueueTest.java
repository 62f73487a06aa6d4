package dev.braid.core;

import dev.braid.store.DownloadState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The persistent queue: batches, limits, priorities, pause and resume, and a queue that outlives its Braid. */
class QueueTest extends DownloadHarness {

  @Test
  void batchReportsExactlyWhichFilesFailed() throws Exception {
    int n = 200;
    Set<Integer> missing = Set.of(7, 50, 123, 199);
    int corrupt = 77;
    List<Content> contents = new ArrayList<>();
    List<Download> batch = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Content c = Content.random(2_000 + i * 37, i);
      contents.add(c);
      if (missing.contains(i)) {
        server.respond("/f" + i, 404);
      } else {
        server.serve("/f" + i, c);
      }
      DownloadRequestBuilder b = DownloadRequest.builder(server.url("/f" + i)).directory(dir);
      if (i == corrupt) {
        b.checksum(Checksum.parse("sha-256=" + Content.random(10, 99).sha256Hex()));
      } else if (i % 10 == 0) {
        b.checksum(Checksum.parse("sha-256=" + c.sha256Hex()));
      }
      batch.add(braid.submit(b.build()));
    }
    Set<Integer> failed = new HashSet<>();
    for (int i = 0; i < n; i++) {
      try {
        DownloadResult r = batch.get(i).result().join();
        assertEquals(contents.get(i).sha256Hex(), sha256(r.file()), "file " + i);
      } catch (CompletionException e) {
        failed.add(i);
        Class<?> expected = i == corrupt ? IntegrityException.class : HttpStatusException.class;
        assertInstanceOf(expected, e.getCause(), "file " + i);
        assertEquals(DownloadState.FAILED, batch.get(i).state());
        assertTrue(batch.get(i).error().orElseThrow().length() > 0);
      }
    }
    Set<Integer> expectedFailures = new HashSet<>(missing);
    expectedFailures.add(corrupt);
    assertEquals(expectedFailures, failed);
    assertTrue(Files.exists(dir.resolve("f" + corrupt + ".part")), "a checksum mismatch keeps the bytes");
    assertFalse(Files.exists(dir.resolve("f" + corrupt)));
    assertEquals(n, braid.downloads().size());
  }

  @Test
  void noMoreThanMaxActiveRunAtOnceAndPriorityGoesFirst() throws Exception {
    braid.close();
    braid = Braid.builder().stateDatabase(dir.resolve("state.db")).maxActiveDownloads(2).build();
    List<String> started = new CopyOnWriteArrayList<>();
    AtomicInteger active = new AtomicInteger();
    AtomicInteger peak = new AtomicInteger();
    braid.listen(new DownloadListener() {
      @Override
      public void stateChanged(Download d, DownloadState s) {
        if (s == DownloadState.ACTIVE) {
          started.add(d.name());
          peak.accumulateAndGet(active.incrementAndGet(), Math::max);
        } else if (s.settled()) {
          active.decrementAndGet();
        }
      }
    }, Duration.ofSeconds(1));
    List<Download> all = new ArrayList<>();
    for (String name : List.of("a", "b")) {
      // the first two hold both slots for about a second
      server.serve("/" + name, Content.random(512 * 1024, name.hashCode())).rateLimitPerConnection(512 * 1024);
      all.add(braid.submit(DownloadRequest.builder(server.url("/" + name)).directory(dir).connections(1).build()));
    }
    Awaitility.await("the first two started").atMost(Duration.ofSeconds(5)).until(() -> started.size() >= 2);
    for (String name : List.of("low", "mid", "high")) {
      server.serve("/" + name, Content.random(1000, name.hashCode()));
    }
    all.add(braid.submit(DownloadRequest.builder(server.url("/low")).directory(dir).priority(-1).build()));
    all.add(braid.submit(DownloadRequest.builder(server.url("/mid")).directory(dir).build()));
    all.add(braid.submit(DownloadRequest.builder(server.url("/high")).directory(dir).priority(5).build()));
    for (Download d : all) {
      d.result().join();
    }
    braid.close();
    assertEquals(2, peak.get(), "active downloads at once: " + started);
    assertEquals(List.of("high", "mid", "low"), started.subList(2, 5));
  }

  @Test
  void braidKeepsNoHandleOfAFinishedDownloadNobodyHolds() throws Exception {
    braid.close();
    braid = Braid.builder().stateDatabase(dir.resolve("state.db")).maxActiveDownloads(1).build();
    // the first holds the only slot for about three seconds, so the others wait in the queue
    server.serve("/slow", Content.random(1536 * 1024, 1)).rateLimitPerConnection(512 * 1024);
    Download slow = braid.submit(DownloadRequest.builder(server.url("/slow")).directory(dir).connections(1).build());
    List<java.util.concurrent.CompletableFuture<DownloadResult>> results = new ArrayList<>();
    List<java.lang.ref.WeakReference<Download>> handles = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      server.serve("/f" + i, Content.random(1000 + i, i));
      Download d = braid.submit(DownloadRequest.builder(server.url("/f" + i)).directory(dir).build());
      // the caller keeps only the result: the queue must still finish it, on that same future
      results.add(d.result());
      handles.add(new java.lang.ref.WeakReference<>(d));
    }
    collectGarbage();
    assertFalse(slow.result().isDone(), "the test needs the others still queued now");
    for (int i = 0; i < 20; i++) {
      assertEquals(1000 + i, Files.size(results.get(i).get(30, java.util.concurrent.TimeUnit.SECONDS).file()));
    }
    slow.result().join();
    results.clear();
    collectGarbage();
    long kept = handles.stream().filter(h -> h.get() != null).count();
    assertEquals(0, kept, "handles of finished downloads still reachable");
    assertEquals(21, braid.downloads().stream().filter(d -> d.state() == DownloadState.COMPLETED).count());
  }

  private static void collectGarbage() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(50);
    }
  }

  @Test
  void pauseAndResumeContinueFromTheBytesOnDisk() throws Exception {
    Content c = Content.random(4 << 20, 5);
    server.serve("/f.bin", c).etag("\"v1\"").rateLimitPerConnection(1 << 20);
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin")).connections(2).build());
    awaitProgress(d, 1 << 20);
    d.pause();
    CompletionException paused = org.junit.jupiter.api.Assertions.assertThrows(CompletionException.class, () -> d.result().join());
    assertInstanceOf(DownloadPausedException.class, paused.getCause());
    assertEquals(DownloadState.PAUSED, d.state());
    long sentBefore = server.bodyBytesSent();
    d.resume();
    DownloadResult r = d.result().join();
    assertEquals(c.sha256Hex(), sha256(r.file()));
    assertTrue(r.bytesReused() >= 1 << 20, "resumed with " + r.bytesReused() + " " + d.restartReason() + " " + r);
    assertTrue(server.bodyBytesSent() - sentBefore < c.size() - (1 << 20) + (512 << 10),
        "fetched again after resume: " + (server.bodyBytesSent() - sentBefore));
    assertEquals(DownloadState.COMPLETED, d.state());
  }

  @Test
  void aClosedBraidLeavesItsQueueForTheNextOne() throws Exception {
    braid.close();
    braid = Braid.builder().stateDatabase(dir.resolve("state.db")).maxActiveDownloads(1).build();
    List<Content> contents = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Content c = Content.random(1 << 20, i);
      contents.add(c);
      server.serve("/q" + i, c).rateLimitPerConnection(1 << 20);
      braid.submit(DownloadRequest.builder(server.url("/q" + i)).directory(dir).connections(1).build());
    }
    Braid first = braid;
    Awaitility.await("the first download runs").atMost(Duration.ofSeconds(5)).until(() -> first.running().size() == 1);
    braid.close();
    Braid next = Braid.builder().stateDatabase(dir.resolve("state.db")).maxActiveDownloads(4).runQueue(true).build();
    try {
      List<Download> all = next.downloads();
      assertEquals(4, all.size());
      for (Download d : all) {
        assertFalse(d.state() == DownloadState.PAUSED, "closing must not pause the queue: " + d);
      }
      Awaitility.await("the next Braid completes the queue").atMost(Duration.ofSeconds(20))
          .until(() -> all.stream().allMatch(d -> d.state() == DownloadState.COMPLETED));
      for (int i = 0; i < 4; i++) {
        assertEquals(contents.get(i).sha256Hex(), sha256(dir.resolve("q" + i)), "q" + i);
      }
    } finally {
      next.close();
    }
  }

  @Test
  void globalRateLimitHoldsOverTwoDownloads() throws Exception {
    braid.close();
    long rate = 2 << 20;
    braid = Braid.builder().stateDatabase(dir.resolve("state.db")).rateLimit(rate).build();
    List<Download> all = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      server.serve("/r" + i, Content.random(6 << 20, i));
      all.add(braid.submit(DownloadRequest.builder(server.url("/r" + i)).directory(dir).build()));
    }
    long start = System.nanoTime();
    for (Download d : all) {
      d.result().join();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    double achieved = (12 << 20) / seconds;
    assertTrue(achieved <= rate * 1.1 && achieved >= rate * 0.85,
        "12 MiB at a 2 MiB/s limit took " + seconds + " s (" + achieved / (1 << 20) + " MiB/s)");
  }

  @Test
  void aDownloadsOwnLimitCanChangeWhileItRuns() throws Exception {
    Content c = Content.random(3 << 20, 3);
    server.serve("/f.bin", c);
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin")).rateLimit(256 << 10).build());
    awaitProgress(d, 256 << 10);
    long t0 = System.nanoTime();
    long before = d.progress().done();
    // a second's worth at the limit: the time it took is the measure
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> d.progress().done() - before >= 256 << 10);
    double slow = (d.progress().done() - before) / ((System.nanoTime() - t0) / 1e9);
    assertTrue(slow < 256 * 1024 * 1.3, "limited to 256 KiB/s but moved " + slow);
    d.rateLimit(0);
    DownloadResult r = d.result().join();
    assertEquals(c.sha256Hex(), sha256(r.file()));
    assertTrue(r.elapsed().toMillis() < 5000, "lifting the limit must speed it up: " + r.elapsed());
  }

  @Test
  void submittingTheSameDownloadAgainContinuesTheSameEntry() throws Exception {
    Content c = Content.random(1 << 20, 8);
    server.serve("/f.bin", c).rateLimitPerConnection(512 << 10);
    Download first = braid.submit(request("/f.bin", dir.resolve("f.bin")).connections(1).build());
    awaitProgress(first, 100_000);
    first.pause();
    org.junit.jupiter.api.Assertions.assertThrows(CompletionException.class, () -> first.result().join());
    Download again = braid.submit(request("/f.bin", dir.resolve("f.bin")).connections(1).build());
    assertEquals(first.id(), again.id());
    assertEquals(c.sha256Hex(), sha256(again.result().join().file()));
    assertEquals(1, braid.downloads().size());
  }

  @Test
  void onlyTheBraidADownloadWasAskedOfSaysItWasSubmittedThere() throws Exception {
    server.serve("/f.bin", Content.random(100_000, 10));
    Download mine = braid.submit(request("/f.bin", dir.resolve("f.bin")).build());
    mine.result().join();
    assertTrue(mine.submittedHere());
    try (Braid other = Braid.builder().stateDatabase(dir.resolve("state.db")).build()) {
      Download found = other.download(mine.id()).orElseThrow();
      assertFalse(found.submittedHere(), "found in the store, not asked of this Braid");
      // asked again (it is complete, so nothing is fetched): now it was
      Download asked = other.submit(request("/f.bin", dir.resolve("f.bin")).build());
      assertEquals(mine.id(), asked.id());
      assertTrue(asked.submittedHere());
    }
  }

  @Test
  void anEntryWhoseProcessDiedWithoutAWordIsShownQueued() throws Exception {
    Process owner = new ProcessBuilder("sleep", "60").start();
    try (dev.braid.state.Store theirs = dev.braid.state.Store.open(dir.resolve("state.db"))) {
      // another process's download, as its own connection records it
      long id = theirs.queue().add(List.of(server.url("/f.bin")), null, dir, java.util.Map.of(), 0,
          dev.braid.store.ProcessOwner.of(owner.toHandle())).id();
      theirs.queue().setState(id, dev.braid.store.DownloadState.ACTIVE, null, null);
      Download d = awaitState(id, DownloadState.ACTIVE);
      // through a refresh (every second), which reads the last change: from here on nobody writes to the store
      Awaitility.await("its process still runs").during(Duration.ofMillis(1_500)).atMost(Duration.ofSeconds(3))
          .until(() -> d.state() == DownloadState.ACTIVE);
      owner.destroyForcibly().waitFor();
      awaitState(id, DownloadState.QUEUED);
      assertEquals(DownloadState.QUEUED, d.state());
    } finally {
      owner.destroyForcibly();
    }
  }

  @Test
  void anEntryAnotherProcessRemovesIsAnnouncedAsRemoved() throws Exception {
    List<Long> removed = new CopyOnWriteArrayList<>();
    braid.listen(new DownloadListener() {
      @Override
      public void removed(Download x) {
        removed.add(x.id());
      }
    }, Duration.ofSeconds(1));
    try (dev.braid.state.Store theirs = dev.braid.state.Store.open(dir.resolve("state.db"))) {
      long id = theirs.queue().add(List.of(server.url("/f.bin")), null, dir, java.util.Map.of(), 0, "elsewhere:1:1").id();
      theirs.queue().setState(id, dev.braid.store.DownloadState.PAUSED, null, null);
      Download d = awaitState(id, DownloadState.PAUSED);
      theirs.queue().remove(id);
      Awaitility.await("a removed event for #" + id).atMost(Duration.ofSeconds(10)).until(() -> removed.contains(id));
      assertTrue(braid.download(id).isEmpty());
      assertEquals(id, d.id());
    }
  }

  /** The handle of entry {@code id} once this Braid shows it in {@code state}. */
  private Download awaitState(long id, DownloadState state) {
    Download d = braid.download(id).orElseThrow();
    Awaitility.await("#" + id + " shown " + state).atMost(Duration.ofSeconds(10)).until(() -> d.state() == state);
    return d;
  }

  @Test
  void removeWithDeleteFileLeavesNothing() throws Exception {
    server.serve("/f.bin", Content.random(2 << 20, 9)).rateLimitPerConnection(256 << 10);
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin")).connections(1).build());
    awaitProgress(d, 100_000);
    List<Long> removed = Collections.synchronizedList(new ArrayList<>());
    braid.listen(new DownloadListener() {
      @Override
      public void removed(Download x) {
        removed.add(x.id());
      }
    }, Duration.ofSeconds(1));
    d.remove(true);
    assertFalse(Files.exists(dir.resolve("f.bin.part")));
    assertTrue(braid.download(d.id()).isEmpty());
    Awaitility.await("a removed event").atMost(Duration.ofSeconds(2)).until(() -> !removed.isEmpty());
    assertEquals(List.of(d.id()), removed);
  }

  @Test
  void aDownloadRemovedWhileItRunsInAQueueRunnerIsNotTakenUpAgain() throws Exception {
    braid.close();
    // a queue runner (as braid daemon): it starts every runnable entry, not only its own
    braid = Braid.builder().stateDatabase(dir.resolve("state.db")).runQueue(true).maxActiveDownloads(8).build();
    int n = 8;
    List<Download> ds = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      // slow: a run taken up again after its removal would still be running seconds later
      server.serve("/r" + i, Content.random(4 << 20, 70 + i)).rateLimitPerConnection(128 << 10);
      ds.add(braid.submit(request("/r" + i, dir.resolve("r" + i)).connections(1).build()));
    }
    for (Download d : ds) {
      awaitProgress(d, 64 << 10);
      // the stopped run leaves its entry runnable until the delete: the loop, woken by the run's
      // end, must not take it in between
      d.remove(false);
      assertTrue(braid.download(d.id()).isEmpty());
    }
    Awaitility.await("removed downloads stop").atMost(Duration.ofSeconds(5)).until(() -> braid.running().isEmpty());
    assertEquals(List.of(), braid.running().stream().map(Download::id).toList(), "removed downloads run on");
    assertTrue(braid.downloads().isEmpty());
  }

  @Test
  void aDownloadAddedPausedAgainInAQueueRunnerFetchesNothing() throws Exception {
    braid.close();
    // a queue runner (as braid daemon): once queued, an entry may start at any moment
    braid = Braid.builder().stateDatabase(dir.resolve("state.db")).runQueue(true).maxActiveDownloads(16).build();
    int n = 300;
    List<Download> first = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      server.serve("/p" + i, Content.random(1000, 300 + i));
      first.add(braid.submitPaused(request("/p" + i, dir.resolve("p" + i)).build()));
    }
    // the same requests again, paused (a client that adds its list twice): each continues its
    // entry, which was once written queued and then paused, and the runner started some in between
    for (int i = 0; i < n; i++) {
      Download again = braid.submitPaused(request("/p" + i, dir.resolve("p" + i)).build());
      assertEquals(first.get(i).id(), again.id());
      assertEquals(DownloadState.PAUSED, again.state());
    }
    assertEquals(List.of(), braid.running().stream().map(Download::id).toList());
    assertEquals(List.of(), server.requests().stream().map(r -> r.path()).toList(), "paused downloads fetched");
    assertTrue(braid.downloads().stream().allMatch(d -> d.state() == DownloadState.PAUSED));
  }

  @Test
  void anotherBraidOnTheStoreSeesTheChecksumAndMirrorsOfADownload() throws Exception {
    Content c = Content.random(50_000, 12);
    server.serve("/f.bin", c);
    Checksum sum = Checksum.parse("sha-256=" + c.sha256Hex());
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin")).checksum(sum)
        .mirrors(List.of(server.url("/copy.bin"))).build());
    d.result().join();
    braid.close();
    braid = newBraid();
    Download seen = braid.download(d.id()).orElseThrow();
    assertEquals(Optional.of(sum), seen.checksum());
    assertEquals(List.of(server.url("/copy.bin")), seen.mirrors());
    assertEquals(DownloadState.COMPLETED, seen.state());
    assertEquals(c.size(), seen.progress().done());
  }

  @Test
  void aListenerHearsOfEntriesAnotherProcessAddsButNotOfTheHistory() throws Exception {
    server.serve("/old", Content.random(1000, 1));
    server.serve("/new", Content.random(1000, 2));
    braid.submit(DownloadRequest.builder(server.url("/old")).directory(dir).build()).result().join();
    // a second Braid on the same store: its own connection, as another process has
    try (Braid other = newBraid()) {
      List<String> heard = new CopyOnWriteArrayList<>();
      other.listen(new DownloadListener() {
        @Override
        public void stateChanged(Download d, DownloadState s) {
          heard.add(d.name() + " " + s);
        }
      }, Duration.ofSeconds(1));
      Thread.sleep(1500); // the other's queue has looked at the store at least once
      braid.submit(DownloadRequest.builder(server.url("/new")).directory(dir).build()).result().join();
      Awaitility.await("the other heard of the new entry").atMost(Duration.ofSeconds(5))
          .until(() -> heard.contains("new COMPLETED") || heard.contains("new QUEUED") || heard.contains("new ACTIVE"));
      assertTrue(heard.stream().anyMatch(h -> h.startsWith("new ")), "heard: " + heard);
      assertTrue(heard.stream().noneMatch(h -> h.startsWith("old ")), "heard: " + heard);
    }
  }

  @Test
  void aBatchOfSmallFilesFromAFastServerIsServedOnceOverReusedConnections() throws Exception {
    int files = 16;
    int size = 8 << 20;
    List<Download> all = new ArrayList<>();
    for (int i = 0; i < files; i++) {
      server.serve("/s" + i, Content.random(size, 300 + i)).etag("\"s\"");
      all.add(braid.submit(DownloadRequest.builder(server.url("/s" + i)).directory(dir).build()));
    }
    for (int i = 0; i < files; i++) {
      assertEquals(Content.random(size, 300 + i).sha256Hex(), sha256(all.get(i).result().join().file()));
    }
    // a cut into a response whose rate is not known yet threw away what was in flight: 1.2-1.3x
    // before. A measured cut still loses what the socket buffers hold past the new end (up to
    // ~1.03x on a loaded 2-core CI machine), so the bound sits between the two.
    double served = (double) server.bodyBytesSent() / ((long) files * size);
    assertTrue(served < 1.10, "served " + served + "x the batch");
    assertTrue(server.connectionsAccepted() <= files, "connections opened: " + server.connectionsAccepted());
  }

  @Test
  void aPauseWhileTheQueueStartsTheDownloadIsNeverLost() throws Exception {
    braid.close();
    braid = Braid.builder().stateDatabase(dir.resolve("state.db")).maxActiveDownloads(2).build();
    int n = 60;
    List<Download> paused = new ArrayList<>();
    List<Download> kept = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      server.serve("/p" + i, Content.random(20_000, 500 + i));
      Download d = braid.submit(DownloadRequest.builder(server.url("/p" + i)).directory(dir).build());
      // every other one is paused at once, often just as the queue thread launches it
      if (i % 2 == 1) {
        d.pause();
        paused.add(d);
      } else {
        kept.add(d);
      }
    }
    for (Download d : kept) {
      d.result().join();
    }
    for (Download d : paused) {
      CompletionException e = org.junit.jupiter.api.Assertions.assertThrows(CompletionException.class, () -> d.result().join(),
          "a paused download completed: " + d.url());
      assertInstanceOf(DownloadPausedException.class, e.getCause());
    }
    // nothing runs any more, and nothing paused was finished behind the caller's back
    Awaitility.await("nothing runs").during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> braid.running().isEmpty());
    for (Download d : paused) {
      assertEquals(DownloadState.PAUSED, braid.download(d.id()).orElseThrow().state(), d.url());
      assertFalse(Files.exists(dir.resolve(d.url().substring(d.url().lastIndexOf('/') + 1))), d.url());
    }
  }
}
