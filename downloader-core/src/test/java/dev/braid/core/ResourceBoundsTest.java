package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.state.Store;
import dev.braid.store.SegmentRecord;
import dev.braid.testserver.Content;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A hostile server cannot make Braid use unbounded memory: response heads, redirect chains and
 * the segment table all have limits, and a server past them ends the download with a typed error.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ResourceBoundsTest extends DownloadHarness {

  @Test
  void oneEndlessHeaderLineFailsTheDownloadAtOnce() throws Exception {
    server.serve("/f.bin", Content.random(1000, 1)).etag("\"v1\"").headerFlood(1, 64 << 20);
    long start = System.nanoTime();
    NetworkException e = assertThrows(NetworkException.class, () -> get(request("/f.bin", dir.resolve("f.bin"))));
    assertTrue(e.getMessage().contains("beyond Braid's limits"), e.getMessage());
    assertEquals(1, server.requests().size(), "the same head would come again: no retries");
    assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10), "failed only after reading the flood");
    assertFalse(Files.exists(dir.resolve("f.bin")) || Files.exists(dir.resolve("f.bin.part")), "nothing written");
  }

  @Test
  void headerLinesWithoutEndFailTheDownloadAtOnce() throws Exception {
    // a head that never ends: refused at the 101st line, not collected
    server.serve("/f.bin", Content.random(1000, 1)).etag("\"v1\"").headerFlood(Integer.MAX_VALUE, 100);
    NetworkException e = assertThrows(NetworkException.class, () -> get(request("/f.bin", dir.resolve("f.bin"))));
    assertTrue(e.getMessage().contains("beyond Braid's limits"), e.getMessage());
    assertEquals(1, server.requests().size());
  }

  @Test
  void aLargeButReasonableHeadIsAccepted() throws Exception {
    Content c = Content.random(3 << 20, 2);
    // 60 headers of 8 KiB: far beyond usual, still within the bounds (100 lines, 32 KiB each)
    server.serve("/f.bin", c).etag("\"v1\"").headerFlood(60, 8 * 1024);
    DownloadResult r = get(request("/f.bin", dir.resolve("f.bin")).connections(2).minSplitSize(256 * 1024));
    assertEquals(sha256(c), sha256(r.file()));
  }

  @Test
  void redirectsBeyondTheLimitFailWithoutFollowingThemAll() throws Exception {
    int chain = 50;
    for (int i = 0; i < chain; i++) {
      server.redirect("/r" + i, "/r" + (i + 1), 302);
    }
    Content c = Content.random(1000, 3);
    server.serve("/r" + chain, c).etag("\"v1\"");
    RedirectRefusedException e = assertThrows(RedirectRefusedException.class, () -> get(request("/r0", dir.resolve("a"))));
    assertTrue(e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("redirect"), e.getMessage());
    // the default limit is 10: the client asks 11 times at most, and never retries the chain
    assertTrue(server.requests().size() <= 11, "followed " + server.requests().size());

    server.clearRequests();
    DownloadResult ok = get(request("/r" + (chain - 5), dir.resolve("b")));
    assertEquals(sha256(c), sha256(ok.file()), "a chain within the limit is followed");
  }

  @Test
  void theSegmentTableStaysBoundedWithATinyMinimumSplitOnAHugeFile() throws Exception {
    // 1 GiB, served slowly: the part file stays sparse, and with a 1-byte minimum split every idle
    // connection may split, which is the case that could multiply segments without limit
    long length = 1L << 30;
    int connections = 16;
    // 1 MiB/s a connection: first requests (4 MiB) end after ~4 s, later ones are ~4 s of
    // throughput, so segments keep finishing and idle connections keep splitting
    server.serve("/huge.bin", Content.random(length, 4)).etag("\"v1\"").rateLimitPerConnection(1L << 20);
    Download d = braid.submit(request("/huge.bin", dir.resolve("huge.bin")).connections(connections).minSplitSize(1).build());
    int most = 0;
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < until) {
      most = Math.max(most, d.progress().segments().size());
      Thread.sleep(5);
    }
    awaitProgress(d, 64 * 1024);
    d.pause();
    assertThrows(Exception.class, () -> await(d));
    List<SegmentRecord> stored;
    try (Store store = Store.open(dir.resolve("state.db"))) {
      stored = store.findByTarget(dir.resolve("huge.bin").toAbsolutePath()).map(rec -> store.segments(rec.id())).orElseThrow();
    }
    String facts = "most segments in memory " + most + ", stored " + stored.size() + ", done " + d.progress().done();
    System.out.println("[segments] " + facts);
    // each connection owns one segment; every split is made by an idle connection, so unfinished
    // segments never outnumber the connections, and finished neighbours merge
    assertTrue(most <= 2 * connections + 1, facts);
    assertTrue(stored.size() <= 2 * connections + 1, facts);
  }

  @Test
  void splittingToTheEndOfAFileWithATinyMinimumKeepsTheTableBounded() throws Exception {
    // here segments finish all the time, and the tail is split as finely as the minimum allows
    long length = 48L << 20;
    int connections = 16;
    Content c = Content.random(length, 5);
    server.serve("/tail.bin", c).etag("\"v1\"").rateLimitPerConnection(4L << 20);
    Download d = braid.submit(request("/tail.bin", dir.resolve("tail.bin")).connections(connections).minSplitSize(1).build());
    int most = 0;
    while (!d.result().isDone()) {
      most = Math.max(most, d.progress().segments().size());
      Thread.sleep(2);
    }
    DownloadResult r = await(d);
    assertEquals(sha256(c), sha256(r.file()));
    String facts = "most segments in memory " + most + ", bytes fetched " + server.bodyBytesSent();
    System.out.println("[segments tail] " + facts);
    assertTrue(most <= 2 * connections + 1, facts);
  }
}
