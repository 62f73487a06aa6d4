package dev.braid.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.Braid;
import dev.braid.core.DownloadRequest;
import dev.braid.core.RunWindow;
import dev.braid.core.rules.Category;
import dev.braid.core.rules.HostRule;
import dev.braid.core.rules.Rules;
import dev.braid.testserver.Content;
import dev.braid.testserver.RequestRecord;
import dev.braid.testserver.TestServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What only the in-process adapter does: the face's host rules under each add, a category's
 * folder made, and the schedules kept in the state database. The scenario both adapters share
 * runs in downloader-rpc's BothWaysTest.
 */
class LocalClientTest {
  @TempDir Path work;
  TestServer server;

  @BeforeEach
  void start() throws Exception {
    server = TestServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private LocalClient client(Rules rules) throws Exception {
    return new LocalClient(Braid.builder().stateDatabase(work.resolve("state.db")).downloadDirectory(work.resolve("dl"))
        .runQueue(true).build(), rules);
  }

  @Test
  void aRunsResultStaysReadableAfterItsEnd() throws Exception {
    server.serve("/r.bin", Content.random(64 * 1024, 3));
    try (LocalClient client = client(Rules.NONE)) {
      CountDownLatch done = new CountDownLatch(1);
      client.follow(e -> {
        if (e.kind() == DownloadEvent.Kind.COMPLETED) {
          done.countDown();
        }
      });
      long id = client.add(List.of(DownloadRequest.builder(server.url("/r.bin")).build()), false).get(0);
      assertTrue(done.await(20, TimeUnit.SECONDS), "the download completes");
      // the engine keeps a finished handle only while someone holds it, and the run's result lives
      // on the handle alone: a collection here drops it unless the client keeps it
      for (int i = 0; i < 3; i++) {
        System.gc();
      }
      DownloadView v = client.download(id).orElseThrow();
      assertEquals(64 * 1024, v.resultIfAny().orElseThrow(() -> new AssertionError("no result after a collection")).length());
    }
  }

  @Test
  void hostRulesGiveWhatTheRequestLeavesAndACategoryItsFolder() throws Exception {
    Content c = Content.random(64 * 1024, 1);
    server.serve("/a.iso", c);
    server.serve("/b.iso", c);
    Rules rules = Rules.of(List.of(HostRule.builder("127.0.0.1").header("X-Rule", "rule").header("X-Both", "rule").build()),
        List.of(Category.builder("images", work.resolve("images")).extension("iso").build()));
    try (LocalClient client = client(rules)) {
      CountDownLatch done = new CountDownLatch(2);
      client.follow(e -> {
        if (e.kind() == DownloadEvent.Kind.COMPLETED) {
          done.countDown();
        }
      });
      List<Long> ids = client.add(List.of(
          DownloadRequest.builder(server.url("/a.iso")).header("X-Both", "request").build(),
          DownloadRequest.builder(server.url("/b.iso")).directory(work.resolve("chosen")).build()), false);
      assertTrue(done.await(20, TimeUnit.SECONDS), "both downloads complete");
      RequestRecord a = server.requests().stream().filter(r -> r.path().equals("/a.iso")).findFirst().orElseThrow();
      assertEquals("rule", a.header("X-Rule"));
      assertEquals("request", a.header("X-Both"), "the request's own header beats the rule's");
      assertEquals(work.resolve("images").resolve("a.iso"), client.download(ids.get(0)).orElseThrow().file());
      assertEquals(work.resolve("chosen").resolve("b.iso"), client.download(ids.get(1)).orElseThrow().file(),
          "a folder the face chose beats the category's");
      assertEquals(c.sha256Hex(), Content.sha256Hex(work.resolve("chosen").resolve("b.iso")));
      assertEquals(c.sha256Hex(), Content.sha256Hex(work.resolve("images").resolve("a.iso")));
    }
  }

  @Test
  void changedSchedulesAreKeptForTheNextStart() throws Exception {
    List<RunWindow> windows = RunWindow.parseList("Mon-Fri 01:00-06:00");
    try (LocalClient client = client(Rules.NONE)) {
      client.changeGlobalOptions(client.globalOptions().withMaxActiveDownloads(2));
      GlobalOptions o = client.globalOptions();
      client.changeGlobalOptions(new GlobalOptions(o.speedLimit(), o.maxActiveDownloads(), windows, o.speedSchedule(),
          o.outageRetry()));
      assertEquals(2, client.globalOptions().maxActiveDownloads());
    }
    try (Braid reader = Braid.builder().stateDatabase(work.resolve("state.db")).runQueue(false).build()) {
      assertEquals(Map.of(RunWindow.SETTING, RunWindow.toText(windows)), Map.copyOf(reader.settings()));
    }
  }

  @Test
  void aResumeRightAfterAPauseTakesEffect() throws Exception {
    Content c = Content.random(2 << 20, 2);
    server.serve("/r.bin", c).rateLimitPerConnection(1 << 20);
    try (LocalClient client = client(Rules.NONE)) {
      CountDownLatch done = new CountDownLatch(1);
      client.follow(e -> {
        if (e.kind() == DownloadEvent.Kind.COMPLETED) {
          done.countDown();
        }
      });
      long id = client.add(List.of(DownloadRequest.builder(server.url("/r.bin")).directory(work.resolve("dl"))
          .connections(1).build()), false).get(0);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (client.download(id).orElseThrow().progress().done() < 128 << 10 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      // pause returns while the run still stops its connection: the resume must not be lost
      client.pause(id);
      client.resume(id);
      assertTrue(done.await(20, TimeUnit.SECONDS), "completes after the resume: " + client.download(id).orElseThrow().state());
      assertEquals(c.sha256Hex(), Content.sha256Hex(work.resolve("dl").resolve("r.bin")));
    }
  }

  @Test
  void aFollowerThatBeganDuringARunHearsItsPause() throws Exception {
    server.serve("/p.bin", Content.random(2 << 20, 4)).rateLimitPerConnection(512 << 10);
    try (LocalClient client = client(Rules.NONE)) {
      long id = client.add(List.of(DownloadRequest.builder(server.url("/p.bin")).connections(1).build()), false).get(0);
      org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20))
          .until(() -> client.download(id).orElseThrow().progress().done() > 0);
      CountDownLatch paused = new CountDownLatch(1);
      client.follow(e -> {
        if (e.id() == id && e.kind() == DownloadEvent.Kind.PAUSED) {
          paused.countDown();
        }
      });
      client.pause(id);
      assertTrue(paused.await(20, TimeUnit.SECONDS), "the pause of a run that began before the follower is heard");
    }
  }

  @Test
  void anUnknownIdIsNotFound() throws Exception {
    try (LocalClient client = client(Rules.NONE)) {
      ClientException e = assertThrows(ClientException.class, () -> client.pause(9999));
      assertEquals(ClientException.Reason.NOT_FOUND, e.reason());
      assertEquals(List.of(), client.page(Set.of(dev.braid.store.DownloadState.values()), dev.braid.core.QueueOrder.OLDEST_FIRST, 0, 10));
    }
  }
}
