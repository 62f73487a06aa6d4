package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.state.Store;
import dev.braid.store.SegmentRecord;
import dev.braid.testserver.Content;
import dev.braid.testserver.RequestRecord;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DownloadFaultTest extends DownloadHarness {
  private static final long SIZE = 8L << 20;

  @Test
  void droppedConnectionsAreRetriedFromTheirOffset() throws Exception {
    Content c = Content.random(SIZE, 1);
    server.serve("/f.bin", c).etag("\"v1\"").dropAfter(300_000, 4);
    Path out = dir.resolve("f.bin");
    get(request("/f.bin", out).connections(4));
    assertEquals(sha256(c), sha256(out));
    // each retry asks from where the dropped response stopped, so about one file's worth is sent
    assertTrue(server.bodyBytesSent() < SIZE * 1.2, "sent " + server.bodyBytesSent());
  }

  @Test
  void aBodyShorterThanItsContentLengthIsRetried() throws Exception {
    Content c = Content.random(SIZE, 2);
    server.serve("/f.bin", c).etag("\"v1\"").truncateAfter(500_000, 2);
    Path out = dir.resolve("f.bin");
    get(request("/f.bin", out).connections(4));
    assertEquals(sha256(c), sha256(out));
  }

  @Test
  void aStalledConnectionIsDroppedByTheReadTimeoutAndItsRangeRetried() throws Exception {
    Content c = Content.random(SIZE, 3);
    server.serve("/f.bin", c).etag("\"v1\"").stallAfter(100_000, Duration.ofSeconds(30), 1);
    Path out = dir.resolve("f.bin");
    long start = System.nanoTime();
    get(request("/f.bin", out).connections(4));
    assertEquals(sha256(c), sha256(out));
    assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(15), "the stall was not waited out");
  }

  @Test
  void unavailableIsRetriedAfterTheServersRetryAfter() throws Exception {
    Content c = Content.random(SIZE, 4);
    server.serve("/f.bin", c).etag("\"v1\"").failNext(503, 2, 1);
    Path out = dir.resolve("f.bin");
    long start = System.nanoTime();
    get(request("/f.bin", out).connections(4));
    assertEquals(sha256(c), sha256(out));
    assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(900), "Retry-After: 1 was honoured");
    assertEquals(503, server.requests().get(0).status());
  }

  @Test
  void notFoundFailsAtOnceWithTheStatus() {
    server.respond("/missing", 404);
    HttpStatusException e = assertThrows(HttpStatusException.class, () -> get(request("/missing", dir.resolve("m"))));
    assertEquals(404, e.status());
    assertTrue(e.getMessage().contains("404"), e.getMessage());
    assertEquals(1, server.requests().size(), "a 404 is final, not retried");
  }

  @Test
  void persistentServerErrorsFailAfterTheRetryBudget() {
    server.serve("/f.bin", Content.random(1000, 1)).failNext(500, 100, null);
    HttpStatusException e = assertThrows(HttpStatusException.class, () -> get(request("/f.bin", dir.resolve("f"))));
    assertEquals(500, e.status());
    assertEquals(6, server.requests().size(), "the first try and 5 retries");
  }

  @Test
  void aRedirectLoopFailsAtOnceWithoutRetries() {
    server.redirect("/a", "/b", 302);
    server.redirect("/b", "/a", 302);
    RedirectRefusedException e = assertThrows(RedirectRefusedException.class, () -> get(request("/a", dir.resolve("x"))));
    assertTrue(e.getMessage().contains("redirect"), e.getMessage());
    assertTrue(server.requests().size() <= 11, "one round of redirects, not one per retry: " + server.requests().size());
  }

  @Test
  void refusedConnectionAndUnknownHostAreNetworkErrors() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    NetworkException refused = assertThrows(NetworkException.class, () -> get(
        DownloadRequest.builder("http://127.0.0.1:" + closedPort + "/x").file(dir.resolve("x"))));
    assertTrue(refused.getMessage().contains("cannot connect"), refused.getMessage());
    NetworkException unknown = assertThrows(NetworkException.class, () -> get(
        DownloadRequest.builder("http://no-such-host.invalid/x").file(dir.resolve("x"))));
    assertTrue(unknown.getMessage().contains("no-such-host.invalid"), unknown.getMessage());
  }

  @ParameterizedTest
  @CsvSource({"429, -1", "429, 1", "502, -1", "502, 0", "500, 0"})
  void burstsOfOverloadAndGatewayErrorsAreRetriedWithOrWithoutRetryAfter(int status, int retryAfter) throws Exception {
    Content c = Content.random(SIZE, 40 + status);
    server.serve("/f.bin", c).etag("\"v1\"").failNext(status, 3, retryAfter < 0 ? null : retryAfter);
    Path out = dir.resolve("f.bin");
    get(request("/f.bin", out).connections(4));
    assertEquals(sha256(c), sha256(out));
    assertEquals(3, server.requests().stream().filter(r -> r.status() == status).count());
  }

  @Test
  void aContentRangeWithAnotherTotalIsNeverWritten() throws Exception {
    Content c = Content.random(SIZE, 41);
    var res = server.serve("/f.bin", c).etag("\"v1\"").rateLimitPerConnection(4L << 20);
    AtomicInteger seen = new AtomicInteger();
    // the probe is honest; the ranges after it claim a file one byte longer
    res.onRequest(r -> {
      if (seen.incrementAndGet() == 2) {
        res.wrongTotal(true);
      }
    });
    Path out = dir.resolve("f.bin");
    assertThrows(RemoteChangedException.class, () -> get(request("/f.bin", out).connections(4).restartIfChanged(false)));
    assertRecordedBytesMatch(out, c);
    assertFalse(Files.exists(out));
  }

  @Test
  void shiftedContentRangeIsNeverWrittenAndEndsAsAnIntegrityError() throws Exception {
    Content c = Content.random(SIZE, 5);
    var res = server.serve("/f.bin", c).etag("\"v1\"").rateLimitPerConnection(4L << 20);
    AtomicInteger seen = new AtomicInteger();
    // the probe is honest; every ranged request after it gets bytes from 1000 further on
    res.onRequest(r -> {
      if (seen.incrementAndGet() == 2) {
        res.shiftContentRange(1000);
      }
    });
    Path out = dir.resolve("f.bin");
    IntegrityException e = assertThrows(IntegrityException.class, () -> get(request("/f.bin", out).connections(4)));
    assertTrue(e.getMessage().contains("asked for bytes"), e.getMessage());
    assertRecordedBytesMatch(out, c);
  }

  @Test
  void aWholeFileAnswerToARangeIsNeverSpliced() throws Exception {
    Content c = Content.random(SIZE, 6);
    var res = server.serve("/f.bin", c).etag("\"v1\"").rateLimitPerConnection(4L << 20);
    AtomicInteger seen = new AtomicInteger();
    res.onRequest(r -> {
      if (seen.incrementAndGet() == 3) {
        res.ignoreRange(true);
      }
    });
    Path out = dir.resolve("f.bin");
    DownloadResult r = get(request("/f.bin", out).connections(4));
    assertEquals(sha256(c), sha256(out));
    assertEquals(1, r.restarts(), "ranges refused: the next pass finds none and fetches it whole from the start");
  }

  @Test
  void aFileThatChangesMidDownloadEndsAsTheNewFile() throws Exception {
    Content v1 = Content.random(SIZE, 7);
    Content v2 = Content.random(SIZE, 8);
    var res = server.serve("/f.bin", v1).etag("\"v1\"").rateLimitPerConnection(4L << 20);
    AtomicInteger seen = new AtomicInteger();
    res.onRequest(r -> {
      if (seen.incrementAndGet() == 3) {
        res.content(v2).etag("\"v2\"");
      }
    });
    Path out = dir.resolve("f.bin");
    DownloadResult r = get(request("/f.bin", out).connections(4));
    assertEquals(sha256(v2), sha256(out));
    assertEquals(1, r.restarts());
  }

  @Test
  void moreBytesThanAskedAreNotWritten() throws Exception {
    Content c = Content.random(SIZE, 9);
    server.serve("/f.bin", c).etag("\"v1\"").extraBytes(5000);
    Path out = dir.resolve("f.bin");
    get(request("/f.bin", out).connections(4));
    assertEquals(sha256(c), sha256(out));
  }

  /** Every byte the store calls done in the part file equals the source (invariant 2). */
  private void assertRecordedBytesMatch(Path out, Content c) throws Exception {
    braid.close();
    braid = newBraid();
    Path part = out.resolveSibling(out.getFileName() + ".part");
    List<SegmentRecord> segments;
    try (Store store = Store.open(dir.resolve("state.db"))) {
      segments = store.segments(store.findByTarget(out).orElseThrow().id());
    }
    long checked = 0;
    try (FileChannel ch = FileChannel.open(part)) {
      for (SegmentRecord s : segments) {
        ByteBuffer got = ByteBuffer.allocate((int) s.done());
        ch.read(got, s.start());
        byte[] want = new byte[(int) s.done()];
        c.read(s.start(), want, 0, want.length);
        assertEquals(ByteBuffer.wrap(want), got.flip(), "segment at " + s.start());
        checked += s.done();
      }
    }
    assertTrue(checked > 0, "the probe's honest bytes were kept");
    assertTrue(Files.size(part) == c.size());
    assertTrue(server.requests().stream().skip(1).map(RequestRecord::status).allMatch(s -> s == 206));
  }
}
