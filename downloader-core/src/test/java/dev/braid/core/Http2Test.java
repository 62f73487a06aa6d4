package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.H2TestServer;
import dev.braid.testserver.RequestRecord;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * HTTP/2 against a real h2 server on loopback (httpcore5-h2, TLS with ALPN): the ranges of a
 * download are streams on one connection, If-Range guards each of them, and HTTP/1.1 (the
 * default) stays HTTP/1.1 against the same server.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class Http2Test extends TlsHarness {

  @Test
  void manyRangesTravelAsStreamsOfOneConnection() throws Exception {
    Content c = Content.random(24 << 20, 61);
    try (H2TestServer server = H2TestServer.start(certificate); Braid braid = braid(HttpVersion.HTTP_2)) {
      server.serve("/big", c).etag("\"h2\"");
      DownloadResult r = DownloadHarness.await(braid.submit(DownloadRequest.builder(server.url("/big"))
          .file(dir.resolve("big.bin")).connections(8).build()));
      assertEquals(c.sha256Hex(), Content.sha256Hex(r.file()));
      List<RequestRecord> requests = server.requests();
      assertTrue(requests.size() >= 8, requests.size() + " requests");
      assertEquals(1, server.connectionsAccepted(), "every range on one connection");
      assertTrue(server.protocols().stream().allMatch("HTTP/2.0"::equals), server.protocols().toString());
      // the reactor opened the connection, outside the download's threads: still the download's
      TransferMetrics m = r.metrics();
      assertEquals(1, m.connectionsOpened(), m.toString());
      assertEquals(1, m.tlsHandshakes(), m.toString());
      assertTrue(m.tlsTime().toNanos() > 0, m.toString());
      assertEquals(requests.size(), m.requests(), m.toString());
      assertEquals(requests.size() - 1, m.requestsOnReusedConnections(), m.toString());
      // the probe learns the validator; every range after it carries it
      for (RequestRecord q : requests.subList(1, requests.size())) {
        assertEquals("\"h2\"", q.ifRange(), q.toString());
        assertTrue(q.range() != null && q.range().startsWith("bytes="), q.toString());
      }
      assertFalse(Files.exists(dir.resolve("big.bin.part")));
    }
  }

  @Test
  void slowStreamsAreNotReplacedForTheyShareTheirConnection() throws Exception {
    Content c = Content.random(24 << 20, 63);
    // every stream is far under the lowest speed: over HTTP/1.1 each connection would be replaced
    // after 3 s, but here one replacement aborted a stream, which closed the shared connection
    try (H2TestServer server = H2TestServer.start(certificate);
        Braid braid = Braid.builder().stateDatabase(dir.resolve("state.db")).caCertificates(certificate.pemFile())
            .httpVersion(HttpVersion.HTTP_2).firstBackoff(Duration.ofMillis(20)).lowestSpeed(64L << 20).build()) {
      server.serve("/slow", c).etag("\"s\"");
      server.rateLimitPerConnection("HTTP/2.0", 3L << 20);
      Download d = braid.submit(DownloadRequest.builder(server.url("/slow")).file(dir.resolve("slow.bin")).connections(4).build());
      DownloadResult r = DownloadHarness.await(d);
      assertEquals(c.sha256Hex(), Content.sha256Hex(r.file()));
      assertEquals(1, server.connectionsAccepted(), "one connection throughout: " + d.connectionChanges());
      assertTrue(d.connectionChanges().stream().noneMatch(ch -> ch.reason().contains("slow connection")),
          d.connectionChanges().toString());
    }
  }

  @Test
  void aStalledConnectionIsGivenUpForANewOneWithinSeconds() throws Exception {
    Content c = Content.random(32 << 20, 65);
    try (H2TestServer server = H2TestServer.start(certificate); Braid braid = braid(HttpVersion.HTTP_2)) {
      server.serve("/s", c).etag("\"s\"");
      // as lighttpd 1.4.69 does: the connection stays open and sends no more DATA on any stream
      server.stallHttp2Connections(1, 6 << 20);
      DownloadResult r = DownloadHarness.await(braid.submit(DownloadRequest.builder(server.url("/s"))
          .file(dir.resolve("s.bin")).connections(8).build()));
      assertEquals(c.sha256Hex(), Content.sha256Hex(r.file()));
      assertEquals(2, server.connectionsAccepted(), "the stalled connection was left for one new one");
      // the read timeout is 30 s: the stall was seen after 3 s of silence
      assertTrue(r.elapsed().toSeconds() < 12, "recovered in seconds: " + r.elapsed());
      assertEquals(2, r.metrics().connectionsOpened(), r.metrics().toString());
    }
  }

  @Test
  void http11IsTheDefaultAndStaysHttp11AgainstAnH2Server() throws Exception {
    Content c = Content.random(8 << 20, 62);
    try (H2TestServer server = H2TestServer.start(certificate); Braid braid = braid(HttpVersion.HTTP_1_1)) {
      server.serve("/f", c).etag("\"one\"");
      DownloadResult r = DownloadHarness.await(braid.submit(DownloadRequest.builder(server.url("/f"))
          .file(dir.resolve("f.bin")).connections(4).build()));
      assertEquals(c.sha256Hex(), Content.sha256Hex(r.file()));
      assertTrue(server.protocols().stream().allMatch("HTTP/1.1"::equals), server.protocols().toString());
      assertTrue(server.connectionsAccepted() > 1, "several HTTP/1.1 connections: " + server.connectionsAccepted());
    }
  }

  @Test
  void aFileThatChangesMidDownloadOverH2IsCaughtByIfRangeAndNeverSpliced() throws Exception {
    Content before = Content.random(16 << 20, 63);
    Content after = Content.random(16 << 20, 64);
    try (H2TestServer server = H2TestServer.start(certificate); Braid braid = braid(HttpVersion.HTTP_2)) {
      AtomicInteger seen = new AtomicInteger();
      var resource = server.serve("/c", before).etag("\"v1\"");
      // the second request (the first range after the probe) and every one after it see the new
      // file; requests in flight keep If-Range "v1". Unthrottled h2 on loopback can finish 16 MiB
      // in two requests, so a later change could miss the download altogether
      resource.onRequest(q -> {
        if (seen.incrementAndGet() == 2) {
          resource.content(after).etag("\"v2\"");
        }
      });
      DownloadResult r = DownloadHarness.await(braid.submit(DownloadRequest.builder(server.url("/c"))
          .file(dir.resolve("c.bin")).connections(4).build()));
      assertEquals(after.sha256Hex(), Content.sha256Hex(r.file()), "the new file, whole, not a splice");
      assertTrue(r.restarts() >= 1, "restarted from zero: " + r.restarts());
      // only each pass's probe goes without If-Range (it learns the validator); every range has it
      assertEquals(r.restarts() + 1, server.requests().stream().filter(q -> q.ifRange() == null).count(),
          server.requests().toString());
      assertNull(server.requests().get(0).ifRange());
      assertTrue(server.protocols().stream().allMatch("HTTP/2.0"::equals), server.protocols().toString());
    }
  }
}
