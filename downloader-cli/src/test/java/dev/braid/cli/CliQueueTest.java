package dev.braid.cli;

import dev.braid.store.DownloadState;
import static dev.braid.cli.CliTestSupport.MIB;
import static dev.braid.cli.CliTestSupport.serveList;
import static dev.braid.cli.CliTestSupport.sha256Hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.cli.CliTestSupport.ServedList;
import dev.braid.testserver.Content;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The queue from the command line: lists, failures in a batch, a terminated batch, and verbs from another process. */
class CliQueueTest extends ServerAndStateDb {
  @Test
  void aListWithFailuresReportsExactlyWhichAndExitsWithTheFirstFailuresCode() throws Exception {
    List<Content> contents = new ArrayList<>();
    StringBuilder list = new StringBuilder("# a batch\n\n");
    for (int i = 0; i < 30; i++) {
      Content c = Content.random(10_000 + i, i);
      contents.add(c);
      if (i == 4) {
        server.respond("/f" + i, 404);
      } else {
        server.serve("/f" + i, c);
      }
      list.append(server.url("/f" + i)).append('\n');
      if (i == 9) {
        list.append("  checksum=sha-256=").append(Content.random(5, 5).sha256Hex()).append('\n');
      } else if (i == 10) {
        list.append("  out=renamed.bin\n  checksum=sha-256=").append(c.sha256Hex()).append('\n');
      }
    }
    Files.writeString(work.resolve("list.txt"), list);
    Files.createDirectories(work.resolve("out"));
    CliProcess.Result r = CliProcess.run(work, "get", "-i", "list.txt", "-j", "8", "-d", "out", "--state-db", db.toString())
        .assertExit(4).assertNoStackTrace();
    r.assertStderrContains("/f4", "404", "/f9", "checksum mismatch", "28 of 30 downloads completed, 2 failed");
    for (int i = 0; i < 30; i++) {
      Path f = work.resolve("out").resolve(i == 10 ? "renamed.bin" : "f" + i);
      if (i == 4 || i == 9) {
        assertFalse(Files.exists(f), f.toString());
      } else {
        assertEquals(contents.get(i).sha256Hex(), sha256Hex(f), f.toString());
      }
    }
    CliProcess.Result listed = CliProcess.run(work, "list", "--state-db", db.toString()).assertExit(0);
    assertEquals(28, listed.stdout().lines().filter(l -> l.contains("completed")).count(), listed.describe());
    assertEquals(2, listed.stdout().lines().filter(l -> l.contains("failed")).count(), listed.describe());
  }

  @Test
  void aBadListIsRefusedWithItsLineNumberBeforeAnyDownload() throws Exception {
    server.serve("/a", Content.random(100, 1));
    Files.writeString(work.resolve("list.txt"), server.url("/a") + "\n  colour=blue\n");
    CliProcess.run(work, "get", "-i", "list.txt", "--state-db", db.toString()).assertExit(2)
        .assertOneErrorLine("list.txt:2", "unknown option colour");
    assertTrue(server.requests().isEmpty());
  }

  @Test
  void aMistakeAfterACommentAmongTheOptionsIsReportedAtItsOwnLine() throws Exception {
    server.serve("/a", Content.random(100, 1));
    server.serve("/b", Content.random(100, 2));
    Files.writeString(work.resolve("list.txt"),
        server.url("/a") + "\n  out=a.bin\n  # why b\n\n" + server.url("/b") + "\n  # note\n\n  connections=many\n");
    CliProcess.run(work, "get", "-i", "list.txt", "--state-db", db.toString()).assertExit(2)
        .assertOneErrorLine("list.txt:8", "connections must be a number");
    assertTrue(server.requests().isEmpty());
  }

  @Test
  void aLongListStartsByPriorityThenInListOrder() throws Exception {
    // with -j 1 only a window of the list is in the queue at a time; the last entry's priority
    // must still put it first, and the first entry's negative one put it last
    int n = 60;
    StringBuilder list = new StringBuilder();
    for (int i = 0; i < n; i++) {
      server.serve("/p" + i, Content.random(1000 + i, i));
      list.append(server.url("/p" + i)).append('\n');
      if (i == 0) {
        list.append("  priority=-1\n");
      } else if (i == n - 1) {
        list.append("  priority=5\n");
      }
    }
    Files.writeString(work.resolve("list.txt"), list);
    Files.createDirectories(work.resolve("out"));
    CliProcess.Result r = CliProcess.run(work, "get", "-i", "list.txt", "-j", "1", "-d", "out", "--state-db", db.toString())
        .assertExit(0);
    r.assertStderrContains(n + " of " + n + " downloads completed");
    List<String> order = r.stderr().lines().filter(l -> l.startsWith("saved "))
        .map(l -> Path.of(l.substring("saved ".length(), l.indexOf(" ("))).getFileName().toString()).toList();
    List<String> expected = new ArrayList<>(List.of("p" + (n - 1)));
    for (int i = 1; i < n - 1; i++) {
      expected.add("p" + i);
    }
    expected.add("p0");
    assertEquals(expected, order, r.describe());
    for (int i = 0; i < n; i++) {
      assertEquals(1000 + i, Files.size(work.resolve("out/p" + i)));
    }
  }

  @Test
  void aTerminatedBatchHasQueuedOnlyItsWindowAndTheSameCommandFinishesIt() throws Exception {
    int files = 40;
    long size = 256 * 1024;
    ServedList served = serveList(server, work, "t", files, size, size);
    List<Content> contents = served.contents();
    List<dev.braid.testserver.Resource> resources = served.resources();
    String[] cmd = {"get", "-i", "list.txt", "-j", "2", "-c", "1", "--state-db", db.toString()};
    CliProcess.Result stopped;
    try (CliProcess p = CliProcess.start(work, cmd)) {
      // both slots busy and a first file served whole (a loaded machine may take seconds to get there)
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while ((server.requests().size() < 2 || resources.stream().noneMatch(r -> r.bodyBytesSent() >= size))
          && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      stopped = p.terminate();
    }
    stopped.assertNoStackTrace();
    CliProcess.Result listed = CliProcess.run(work, "list", "--state-db", db.toString()).assertExit(0);
    long entries = listed.stdout().lines().filter(l -> l.matches(".* t\\d+")).count();
    long completed = listed.stdout().lines().filter(l -> l.contains("completed")).count();
    // -j 2 keeps 2 + 16 unfinished in the queue at a time; the rest of the list was never submitted
    assertTrue(entries - completed <= 18 && entries - completed >= 2 && entries < files,
        entries + " entries after the stop\n" + listed.describe() + stopped.describe());
    assertEquals(0, listed.stdout().lines().filter(l -> l.contains("active")).count(), listed.describe());

    resources.forEach(r -> r.rateLimitPerConnection(0));
    CliProcess.Result last = CliProcess.run(work, cmd).assertExit(0);
    last.assertStderrContains(files + " of " + files + " downloads completed");
    for (int i = 0; i < files; i++) {
      assertEquals(contents.get(i).sha256Hex(), sha256Hex(work.resolve("t" + i)), "t" + i);
    }
    assertTrue(server.bodyBytesSent() < files * size * 1.1, "served " + server.bodyBytesSent() + " for " + files * size);
  }

  @Test
  void pauseFromAnotherProcessStopsTheRunningDownloadAndResumeFinishesIt() throws Exception {
    Content c = Content.random(8 * MIB, 7);
    // held until the pause, however long two JVM starts (list, pause) take: the first request
    // stalls after 2 MiB, every replacement before its first byte (one that brings none is not
    // replaced again, so only the 30 s read timeout would end a stall, and its retry stalls too)
    dev.braid.testserver.Resource slow = server.serve("/slow.bin", c).etag("\"v\"");
    AtomicInteger requests = new AtomicInteger();
    slow.onRequest(r -> slow.stallAfter(requests.getAndIncrement() == 0 ? 2 * MIB : 0, Duration.ofMinutes(5), 1));
    try (CliProcess get = CliProcess.start(work, "get", server.url("/slow.bin"), "-c", "1", "--state-db", db.toString())) {
      CliTestSupport.awaitAtLeast(() -> CliTestSupport.recordedBytes(db), MIB, 20_000, get);
      CliProcess.Result listed = CliProcess.run(work, "list", "--state-db", db.toString()).assertExit(0);
      assertTrue(listed.stdout().contains("active"), listed.describe());
      CliProcess.run(work, "pause", "1", "--state-db", db.toString()).assertExit(0);
      get.await(Duration.ofSeconds(20)).assertExit(130);
    }
    slow.onRequest(null).stallAfter(0, Duration.ZERO, 0);
    CliProcess.Result status = CliProcess.run(work, "status", "1", "--json", "--state-db", db.toString()).assertExit(0);
    assertTrue(status.stdout().contains("\"state\":\"paused\""), status.describe());
    long before = server.bodyBytesSent();
    CliProcess.run(work, "resume", "1", "--state-db", db.toString()).assertExit(0);
    assertEquals(c.sha256Hex(), sha256Hex(work.resolve("slow.bin")));
    assertTrue(server.bodyBytesSent() - before < c.size() - MIB / 2, "resume fetched " + (server.bodyBytesSent() - before));
    CliProcess.run(work, "remove", "1", "--state-db", db.toString()).assertExit(0);
    assertTrue(Files.exists(work.resolve("slow.bin")), "remove without --delete-file keeps the file");
    CliProcess.run(work, "status", "1", "--state-db", db.toString()).assertExit(2).assertOneErrorLine("no download #1");
  }

  @Test
  void jsonEventsDescribeTheRun() throws Exception {
    Content c = Content.random(300_000, 3);
    server.serve("/j.bin", c);
    server.respond("/missing", 404);
    CliProcess.Result r = CliProcess.run(work, "get", "--json", server.url("/j.bin"), server.url("/missing"),
        "--state-db", db.toString()).assertExit(4);
    List<String> lines = r.stdout().lines().toList();
    assertTrue(lines.stream().allMatch(l -> l.startsWith("{\"event\":\"") && l.endsWith("}")), r.describe());
    String completed = lines.stream().filter(l -> l.contains("\"event\":\"completed\"")).findFirst().orElseThrow();
    assertTrue(completed.contains("\"length\":300000"), r.describe());
    // the run's connection metrics ride along (a connection may be the other download's: any count)
    assertTrue(completed.matches(".*\"metrics\":\\{\"dns_lookups\":\\d+,.*\"connections_opened\":\\d+,.*\\}\\}"), completed);
    assertTrue(completed.contains("\"bytes\":300000,"), completed);
    assertTrue(completed.matches(".*\"requests\":[1-9].*"), completed);
    assertTrue(lines.stream().anyMatch(l -> l.contains("\"event\":\"failed\"") && l.contains("\"exit_code\":4")), r.describe());
  }

  @Test
  void jsonReportsAFileAlreadyCompleteAsCompleted() throws Exception {
    server.serve("/done.bin", Content.random(200_000, 24));
    CliProcess.run(work, "get", "-q", server.url("/done.bin"), "--state-db", db.toString()).assertExit(0);
    CliProcess.Result r = CliProcess.run(work, "get", "--json", server.url("/done.bin"), "--state-db", db.toString())
        .assertExit(0);
    List<String> completed = r.stdout().lines().filter(l -> l.contains("\"event\":\"completed\"")).toList();
    assertEquals(1, completed.size(), r.describe());
    assertTrue(completed.get(0).contains("\"fetched\":0,\"reused\":200000"), r.describe());
  }

  @Test
  void jsonEventsAreAboutTheRunsOwnDownloadsOnly() throws Exception {
    Content mine = Content.random(2 * (int) MIB, 21);
    server.serve("/mine.bin", mine).rateLimitPerConnection(MIB / 2);
    server.serve("/theirs.bin", Content.random((int) MIB, 22)).rateLimitPerConnection(MIB / 2);
    // this JVM plays another process on the same store (the desktop app, a second get)
    try (dev.braid.core.Braid other = dev.braid.core.Braid.builder().stateDatabase(db).build();
        CliProcess get = CliProcess.start(work, "get", "--json", "-c", "1", server.url("/mine.bin"),
            "--state-db", db.toString())) {
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (other.downloads().stream().noneMatch(d -> d.state() == dev.braid.store.DownloadState.ACTIVE)) {
        assertTrue(System.nanoTime() < deadline, "the get never started");
        Thread.sleep(50);
      }
      // 2 s of the other's own download, inside the get's 4 s: the get reads the store's changes
      // each second, so it sees the other's entry queued or active
      dev.braid.core.Download theirs = other.submit(dev.braid.core.DownloadRequest.builder(server.url("/theirs.bin"))
          .directory(work.resolve("theirs")).maxConnections(1).build());
      CliProcess.Result r = get.await(Duration.ofSeconds(30)).assertExit(0);
      theirs.result().get();
      assertTrue(r.stdout().contains("\"event\":\"completed\""), r.describe());
      assertTrue(r.stdout().lines().noneMatch(l -> l.contains("theirs")), r.describe());
    }
    assertEquals(mine.sha256Hex(), sha256Hex(work.resolve("mine.bin")));
  }

  @Test
  void twoProcessesOnOneStoreRunTheirOwnBatches() throws Exception {
    StringBuilder a = new StringBuilder();
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 10; i++) {
      server.serve("/a" + i, Content.random(500_000, i)).rateLimitPerConnection(2 * MIB);
      server.serve("/b" + i, Content.random(500_000, 50 + i)).rateLimitPerConnection(2 * MIB);
      a.append(server.url("/a" + i)).append('\n');
      b.append(server.url("/b" + i)).append('\n');
    }
    Files.writeString(work.resolve("a.txt"), a);
    Files.writeString(work.resolve("b.txt"), b);
    try (CliProcess first = CliProcess.start(work, "get", "-q", "-i", "a.txt", "--state-db", db.toString());
        CliProcess second = CliProcess.start(work, "get", "-q", "-i", "b.txt", "--state-db", db.toString())) {
      first.await(Duration.ofSeconds(60)).assertExit(0);
      second.await(Duration.ofSeconds(60)).assertExit(0);
    }
    for (int i = 0; i < 10; i++) {
      assertEquals(Content.random(500_000, i).sha256Hex(), sha256Hex(work.resolve("a" + i)));
      assertEquals(Content.random(500_000, 50 + i).sha256Hex(), sha256Hex(work.resolve("b" + i)));
    }
    CliProcess.Result listed = CliProcess.run(work, "list", "--state-db", db.toString()).assertExit(0);
    assertEquals(20, listed.stdout().lines().filter(l -> l.contains("completed")).count(), listed.describe());
  }

  @Test
  void aGetWhileAnotherProcessRunsTheWholeQueueDrivesItsOwnDownload() throws Exception {
    // this JVM plays the desktop app: it runs everything queued in the store
    try (dev.braid.core.Braid app = dev.braid.core.Braid.builder().stateDatabase(db).runQueue(true).build()) {
      for (int i = 0; i < 4; i++) {
        Content c = Content.random(300_000, 900 + i);
        server.serve("/own" + i, c).rateLimitPerConnection(MIB);
        CliProcess.run(work, "get", "-q", server.url("/own" + i), "--state-db", db.toString()).assertExit(0).assertNoStackTrace();
        assertEquals(c.sha256Hex(), sha256Hex(work.resolve("own" + i)));
      }
      assertEquals(4, app.downloads().size());
      assertTrue(app.running().isEmpty(), "the app took a download the command line submitted");
    }
  }
}
