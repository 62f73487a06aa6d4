package dev.braid.core.internal.transfer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.DownloadPausedException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadResult;
import dev.braid.core.HttpStatusException;
import dev.braid.core.NetworkException;
import dev.braid.core.internal.http.OriginHeaders;
import dev.braid.store.DownloadRecord;
import dev.braid.store.DownloadState;
import dev.braid.testserver.Content;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One whole pass, the stages in their order, built from a download's parts and no job: against
 * the loopback test server, a real SQLite store and real files.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AttemptTest {
  /** Beyond the probe's first request, so other connections have ranges of their own at once. */
  private static final int LENGTH = 12 << 20;
  private final Content content = Content.random(LENGTH, 21);

  @TempDir Path dir;
  private StageParts parts;
  private final ExecutorService workers = Executors.newCachedThreadPool();
  private Path target;

  @BeforeEach
  void start() throws Exception {
    parts = new StageParts(dir);
    target = dir.resolve("f.bin");
  }

  @AfterEach
  void stop() throws Exception {
    workers.shutdown();
    assertTrue(workers.awaitTermination(10, TimeUnit.SECONDS), "every worker ended with its pass");
    parts.close();
  }

  private DownloadRequest request() throws Exception {
    return DownloadRequest.builder(parts.server.url("/f")).file(target).minSplitSize(256 << 10).build();
  }

  private Attempt attempt(DownloadRequest request, AtomicBoolean paused, Deadline deadline) {
    return new Attempt(parts.download(request, workers, deadline), request, OriginHeaders.NONE, paused::get);
  }

  private DownloadRecord record() {
    return parts.store.records().findByTarget(target).orElseThrow();
  }

  @Test
  void aPassFetchesTheFileOnSeveralConnectionsAndCompletesItsRecord() throws Exception {
    // each connection held to 8 MiB/s: on an idle machine one connection would fetch 12 MiB of
    // loopback before a second one started, and the pass would not show that it spreads
    parts.server.serve("/f", content).etag("\"a\"").rateLimitPerConnection(8 << 20);
    DownloadResult r = attempt(request(), new AtomicBoolean(), parts.noDeadline()).run();
    assertEquals(LENGTH, r.length());
    assertArrayEquals(StageParts.bytes(content, 0, LENGTH), Files.readAllBytes(target));
    assertFalse(Files.exists(dir.resolve("f.bin.part")));
    assertEquals(DownloadState.COMPLETED, record().status());
    assertEquals("start: new host", parts.log.changes().get(0).reason());
    assertTrue(parts.server.peakConcurrentRequests() > 1, "ranges on several connections");
    assertTrue(parts.store.hosts().host(HostConnections.hostOf(parts.url("/f"))).isPresent(),
        "the host is remembered for the next download");
    assertEquals(0, parts.budget.inUse(), "every permit given back");
  }

  @Test
  void aPausedPassEndsWithItsProgressRecordedAsPaused() throws Exception {
    AtomicBoolean paused = new AtomicBoolean();
    Attempt a = attempt(request(), paused, parts.noDeadline());
    // paused as DownloadJob.pause does it, once a worker asks for a range of its own
    parts.server.serve("/f", content).etag("\"a\"").rateLimitPerConnection(512 << 10).onRequest(req -> {
      if (req.range() != null && !req.range().startsWith("bytes=0-")) {
        paused.set(true);
        a.halt(null);
      }
    });
    DownloadPausedException e = assertThrows(DownloadPausedException.class, a::run);
    assertTrue(e.getMessage().startsWith("paused at "), e.getMessage());
    assertEquals(DownloadState.PAUSED, record().status());
    assertTrue(Files.exists(dir.resolve("f.bin.part")), "kept for a resume");
    assertEquals(0, parts.budget.inUse());
  }

  @Test
  void aPassPastItsDeadlineStopsWithTheBytesKept() throws Exception {
    parts.server.serve("/f", content).etag("\"a\"").rateLimitPerConnection(256 << 10);
    Deadline passed = new Deadline(Duration.ofMillis(1), () -> Duration.ofSeconds(1));
    NetworkException e = assertThrows(NetworkException.class, () -> attempt(request(), new AtomicBoolean(), passed).run());
    assertTrue(e.getMessage().contains("did not finish within its deadline"), e.getMessage());
    assertEquals(DownloadState.FAILED, record().status());
    assertTrue(Files.exists(dir.resolve("f.bin.part")));
  }

  @Test
  void aRefusedProbeLeavesNothingBehind() throws Exception {
    parts.server.respond("/f", 404);
    HttpStatusException e = assertThrows(HttpStatusException.class,
        () -> attempt(request(), new AtomicBoolean(), parts.noDeadline()).run());
    assertEquals(404, e.status());
    assertTrue(parts.store.records().findByTarget(target).isEmpty());
    assertFalse(Files.exists(dir.resolve("f.bin.part")));
    assertEquals(0, parts.budget.inUse(), "the probe's permit was given back");
  }
}
