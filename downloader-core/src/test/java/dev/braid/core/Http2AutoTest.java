package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.H2TestServer;
import dev.braid.testserver.TestServer;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link HttpVersion#AUTO} against real servers on loopback that make one version clearly faster
 * (a rate limit per connection on the other): large downloads take turns measuring the versions,
 * and the later ones use the faster, as the server sees in the protocol of each request. Plain
 * http stays HTTP/1.1, a server without HTTP/2 is tried once, and the forced versions still force.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class Http2AutoTest extends TlsHarness {
  /** Enough to measure (the engine's threshold is 32 MiB to fetch). */
  private static final int LARGE = 32 << 20;


  private DownloadResult fetch(Braid braid, String url, String file) throws Exception {
    return DownloadHarness.await(braid.submit(DownloadRequest.builder(url).file(dir.resolve(file)).build()));
  }

  /** The protocols of the requests the server saw since {@code from}. */
  /** A Braid forced to {@code version} fetches {@code /small} over {@code protocol} alone, whatever the store remembers. */
  private void assertForced(H2TestServer server, HttpVersion version, String protocol, Content small, String file)
      throws Exception {
    try (Braid braid = braid(version)) {
      int from = server.protocols().size();
      assertEquals(small.sha256Hex(), Content.sha256Hex(fetch(braid, server.url("/small"), file).file()));
      assertTrue(since(server, from).stream().allMatch(protocol::equals), "forced: " + since(server, from));
    }
  }

  private static List<String> since(H2TestServer server, int from) {
    List<String> all = server.protocols();
    return all.subList(from, all.size());
  }

  @Test
  void aHostWhoseHttp11ConnectionsAreThrottledMovesToHttp2AndStaysThereAfterARestart() throws Exception {
    Content big = Content.random(LARGE, 71);
    Content small = Content.random(2 << 20, 72);
    try (H2TestServer server = H2TestServer.start(certificate)) {
      server.serve("/big", big).etag("\"a\"");
      server.serve("/small", small).etag("\"s\"");
      server.rateLimitPerConnection("HTTP/1.1", 2 << 20);
      try (Braid braid = braid(HttpVersion.AUTO)) {
        assertEquals(big.sha256Hex(), Content.sha256Hex(fetch(braid, server.url("/big"), "1.bin").file()));
        assertTrue(server.protocols().stream().allMatch("HTTP/1.1"::equals), "nothing known: HTTP/1.1 measured first "
            + server.protocols());
        int second = server.protocols().size();
        assertEquals(big.sha256Hex(), Content.sha256Hex(fetch(braid, server.url("/big"), "2.bin").file()));
        List<String> trial = since(server, second);
        // the probe goes over the preferred version; the ranges after it measure HTTP/2
        assertEquals("HTTP/1.1", trial.get(0));
        assertTrue(trial.size() > 1 && trial.subList(1, trial.size()).stream().allMatch("HTTP/2.0"::equals), trial.toString());
      }
      try (Braid braid = braid(HttpVersion.AUTO)) {
        int third = server.protocols().size();
        assertEquals(big.sha256Hex(), Content.sha256Hex(fetch(braid, server.url("/big"), "3.bin").file()));
        assertEquals(small.sha256Hex(), Content.sha256Hex(fetch(braid, server.url("/small"), "s.bin").file()));
        assertTrue(since(server, third).stream().allMatch("HTTP/2.0"::equals),
            "HTTP/2 measured faster, remembered in the store: " + since(server, third));
      }
      assertForced(server, HttpVersion.HTTP_1_1, "HTTP/1.1", small, "s1.bin");
    }
  }

  @Test
  void aHostWhoseHttp2ConnectionIsThrottledStaysOnHttp11() throws Exception {
    Content big = Content.random(LARGE, 73);
    Content small = Content.random(2 << 20, 74);
    try (H2TestServer server = H2TestServer.start(certificate)) {
      server.serve("/big", big).etag("\"b\"");
      server.serve("/small", small).etag("\"s\"");
      server.rateLimitPerConnection("HTTP/2.0", 12 << 20);
      try (Braid braid = braid(HttpVersion.AUTO)) {
        fetch(braid, server.url("/big"), "1.bin");
        int second = server.protocols().size();
        assertEquals(big.sha256Hex(), Content.sha256Hex(fetch(braid, server.url("/big"), "2.bin").file()));
        List<String> trial = since(server, second);
        assertTrue(trial.subList(1, trial.size()).stream().allMatch("HTTP/2.0"::equals), "HTTP/2 measured: " + trial);
        int third = server.protocols().size();
        assertEquals(big.sha256Hex(), Content.sha256Hex(fetch(braid, server.url("/big"), "3.bin").file()));
        assertTrue(since(server, third).stream().allMatch("HTTP/1.1"::equals), "HTTP/1.1 was faster: " + since(server, third));
      }
      assertForced(server, HttpVersion.HTTP_2, "HTTP/2.0", small, "s2.bin");
    }
  }

  @Test
  void aTrialThatLosesClearlyStopsEarlyAndTheRestGoesOverTheFasterVersion() throws Exception {
    Content big = Content.random(40 << 20, 75);
    try (H2TestServer server = H2TestServer.start(certificate)) {
      server.serve("/big", big).etag("\"t\"");
      try (Braid braid = braid(HttpVersion.AUTO)) {
        fetch(braid, server.url("/big"), "1.bin");
        // HTTP/1.1 is measured at loopback speed; HTTP/2's trial would now need 20 s at 2 MiB/s
        server.rateLimitPerConnection("HTTP/2.0", 2 << 20);
        int second = server.protocols().size();
        Download d = braid.submit(DownloadRequest.builder(server.url("/big")).file(dir.resolve("2.bin")).build());
        DownloadResult r = DownloadHarness.await(d);
        assertEquals(big.sha256Hex(), Content.sha256Hex(r.file()));
        List<String> seen = since(server, second);
        assertTrue(seen.contains("HTTP/2.0") && seen.lastIndexOf("HTTP/1.1") > seen.indexOf("HTTP/2.0"),
            "the trial, then HTTP/1.1: " + seen);
        assertTrue(d.connectionChanges().stream().anyMatch(ch -> ch.reason().startsWith("trial of HTTP/2 stopped")),
            d.connectionChanges().toString());
        assertTrue(r.elapsed().toSeconds() < 15, "stopped after about 5 s instead of running 20: " + r.elapsed());
        int third = server.protocols().size();
        fetch(braid, server.url("/big"), "3.bin");
        assertTrue(since(server, third).stream().allMatch("HTTP/1.1"::equals),
            "HTTP/2 was recorded at its slow rate: " + since(server, third));
      }
    }
  }

  @Test
  void aTrialStoppedWhileItsConnectionStallsLeavesNoRangeWithoutAnOwner() throws Exception {
    Content big = Content.random(40 << 20, 78);
    try (H2TestServer server = H2TestServer.start(certificate)) {
      server.serve("/big", big).etag("\"o\"");
      try (Braid braid = braid(HttpVersion.AUTO)) {
        fetch(braid, server.url("/big"), "1.bin");
        // HTTP/2's trial is slow, and each of its connections stops sending after 3 MiB (lighttpd's
        // stall): streams in flight when the trial stops sat on a silent connection for the 30 s
        // read timeout, holding their ranges, while no other connection could take them
        server.rateLimitPerConnection("HTTP/2.0", 2 << 20);
        server.stallHttp2Connections(100, 3 << 20);
        Download d = braid.submit(DownloadRequest.builder(server.url("/big")).file(dir.resolve("2.bin")).build());
        DownloadResult r = DownloadHarness.await(d);
        assertEquals(big.sha256Hex(), Content.sha256Hex(r.file()));
        assertTrue(d.connectionChanges().stream().anyMatch(ch -> ch.reason().startsWith("trial of HTTP/2 stopped")),
            d.connectionChanges().toString());
        assertTrue(r.elapsed().toSeconds() < 20, "no range waited out the read timeout: " + r.elapsed());
      }
    }
  }

  @Test
  void aServerWithoutHttp2IsAskedOnceThenLeftOnHttp11() throws Exception {
    Content big = Content.random(LARGE, 75);
    try (TestServer server = TestServer.startTls(certificate); Braid braid = braid(HttpVersion.AUTO)) {
      server.serve("/big", big).etag("\"c\"");
      fetch(braid, server.url("/big"), "1.bin");
      assertEquals(0, h2Offers(server), "HTTP/1.1 is measured first: " + server.alpnOffers());
      // the trial of HTTP/2: ALPN says no, the download goes on over HTTP/1.1
      assertEquals(big.sha256Hex(), Content.sha256Hex(fetch(braid, server.url("/big"), "2.bin").file()));
      long asked = h2Offers(server);
      assertTrue(asked >= 1, server.alpnOffers().toString());
      assertEquals(big.sha256Hex(), Content.sha256Hex(fetch(braid, server.url("/big"), "3.bin").file()));
      assertEquals(asked, h2Offers(server), "the refusal is remembered: " + server.alpnOffers());
    }
  }

  @Test
  void forcedHttp2AgainstAServerWithoutItFailsAtOnceWithAClearError() throws Exception {
    try (TestServer server = TestServer.startTls(certificate); Braid braid = braid(HttpVersion.HTTP_2)) {
      server.serve("/f", Content.random(1 << 20, 76));
      ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
          () -> braid.submit(DownloadRequest.builder(server.url("/f")).file(dir.resolve("f.bin")).build()).result().get());
      assertInstanceOf(NetworkException.class, e.getCause());
      assertTrue(e.getCause().getMessage().contains("did not offer HTTP/2"), e.getCause().getMessage());
      assertEquals(1, server.alpnOffers().size(), "not retried: " + server.alpnOffers());
    }
  }

  @Test
  void plainHttpStaysOnHttp11WhateverWasMeasured() throws Exception {
    Content big = Content.random(LARGE, 77);
    try (H2TestServer server = H2TestServer.start(certificate); Braid braid = braid(HttpVersion.AUTO)) {
      // the plain port takes HTTP/2 with prior knowledge too: only Braid's choice keeps it on HTTP/1.1
      server.serve("/big", big).etag("\"p\"");
      for (int i = 0; i < 3; i++) {
        assertEquals(big.sha256Hex(), Content.sha256Hex(fetch(braid, server.plainUrl("/big"), i + ".bin").file()));
      }
      assertTrue(server.protocols().stream().allMatch("HTTP/1.1"::equals), server.protocols().toString());
    }
  }

  private static long h2Offers(TestServer server) {
    return server.alpnOffers().stream().filter(o -> o.contains("h2")).count();
  }
}
