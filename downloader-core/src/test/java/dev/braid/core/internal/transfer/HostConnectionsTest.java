package dev.braid.core.internal.transfer;

import java.time.Clock;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.ConnectionChange;
import dev.braid.core.DownloadRequest;
import dev.braid.core.internal.http.ConnectionWarmup;
import dev.braid.core.internal.metrics.SpeedMeter;
import dev.braid.store.HostMemory;
import dev.braid.store.RemoteIdentity;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** How many connections a download opens to its host, from what a real SQLite store remembers of it. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HostConnectionsTest {
  private static final long LARGE = 256L << 20;

  @TempDir Path dir;
  private StageParts parts;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private String host;
  private RemoteIdentity ranged;

  @BeforeEach
  void start() throws Exception {
    parts = new StageParts(dir);
    host = HostConnections.hostOf(parts.url("/f"));
    ranged = new RemoteIdentity(parts.server.url("/f"), LARGE, "\"x\"", null, true);
  }

  @AfterEach
  void stop() {
    threads.shutdownNow();
    parts.close();
  }

  private HostConnections hosts(DownloadRequest request) {
    return new HostConnections(request, parts.log, Clock.systemUTC(), parts.store.hosts(), parts.route, parts.budget, parts.recorder, threads,
        new SpeedMeter(5_000));
  }

  private DownloadRequest request() throws Exception {
    return DownloadRequest.builder(parts.server.url("/f")).file(dir.resolve("f")).build();
  }

  @Test
  void aRememberedHostStartsAtItsCountAndTheStartIsLogged() throws Exception {
    parts.store.hosts().remember(new HostMemory(host, 0, 6, 1e6, System.currentTimeMillis()));
    assertEquals(6, hosts(request()).controllerFor(ranged, System.nanoTime(), null).target());
    ConnectionChange start = parts.log.changes().get(0);
    assertEquals(0, start.from());
    assertEquals(6, start.to());
    assertTrue(start.reason().startsWith("start: remembered 6 connections"), start.reason());
  }

  @Test
  void aNewHostStartsAtTheDefault() throws Exception {
    assertEquals(HostPolicy.DEFAULT_START, hosts(request()).controllerFor(ranged, System.nanoTime(), null).target());
    assertEquals("start: new host", parts.log.changes().get(0).reason());
  }

  @Test
  void aPinnedCountIsKeptAndLoggedOnlyWithTheProtocolsReason() throws Exception {
    DownloadRequest pinned = DownloadRequest.builder(parts.server.url("/f")).file(dir.resolve("f")).connections(3).build();
    parts.store.hosts().remember(new HostMemory(host, 0, 6, 1e6, System.currentTimeMillis()));
    assertEquals(3, hosts(pinned).controllerFor(ranged, System.nanoTime(), null).target());
    assertTrue(parts.log.changes().isEmpty(), parts.log.changes().toString());
    hosts(pinned).controllerFor(ranged, System.nanoTime(), "HTTP/1.1: forced");
    assertEquals("start: pinned; over HTTP/1.1: forced", parts.log.changes().get(0).reason());
  }

  @Test
  void aFileWithoutRangesGetsOneConnection() throws Exception {
    RemoteIdentity whole = new RemoteIdentity(parts.server.url("/f"), LARGE, null, null, false);
    assertEquals(1, hosts(request()).controllerFor(whole, System.nanoTime(), null).target());
    assertTrue(parts.log.changes().isEmpty());
  }

  @Test
  void onlyARememberedHostIsWarmedAndAFreshDownloadWarmsOneBesideTheProbe() throws Exception {
    assertSame(ConnectionWarmup.NONE, hosts(request()).warmFor(parts.url("/f"), OptionalLong.empty(), 1 << 20));
    parts.store.hosts().remember(new HostMemory(host, 0, 6, 1e6, System.currentTimeMillis()));
    ConnectionWarmup warm = hosts(request()).warmFor(parts.url("/f"), OptionalLong.empty(), 1 << 20);
    assertTrue(warm.awaitSettled(Duration.ofSeconds(10)));
    assertEquals(WarmCount.UNKNOWN_LENGTH_EXTRA, warm.opened());
    warm.cancel();
  }
}
