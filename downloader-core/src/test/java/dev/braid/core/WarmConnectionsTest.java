package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.state.Store;
import dev.braid.store.HostMemory;
import dev.braid.testserver.Content;
import dev.braid.testserver.RequestRecord;
import dev.braid.testserver.TestServer;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Seen from the server (HTTPS, plain http for the dropped connections): a download from a host
 * remembered for ranged downloads opens one connection beside the probe's while the probe waits
 * for its answer, the rest its length can use once the head told it, and uses every one of them; a host with nothing remembered gets no warm connection,
 * and small files none per file; a server that turns connections away during the warm-up does
 * not fail the download (see also {@code ConnectionWarmupTest}).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WarmConnectionsTest extends TlsHarness {
  /** How long the server holds the probe's response head. */
  private static final long PROBE_DELAY_MILLIS = 500;

  @Test
  void theRangesStartOnConnectionsOpenedDuringTheProbe() throws Exception {
    Content c = Content.random(24 << 20, 31);
    try (TestServer server = TestServer.startTls(certificate)) {
      rememberHost(server, 4);
      ProbeWatch probe = new ProbeWatch(server, 2, 2);
      // paced: the later connections open after the head (about a handshake), and on loopback
      // an unpaced probe connection streamed all 24 MiB while they did
      server.serve("/big", c).etag("\"b\"").rateLimitPerConnection(8 << 20).onRequest(probe::hold);
      try (Braid braid = braid(HttpVersion.HTTP_1_1)) {
        DownloadResult r = DownloadHarness.await(braid.submit(DownloadRequest.builder(server.url("/big"))
            .file(dir.resolve("big.bin")).connections(4).build()));
        assertEquals(c.sha256Hex(), Content.sha256Hex(r.file()));

        // before its head was sent, with the length unknown: the probe's connection and one warm
        // one, handshakes done; the other two once the head told the length
        assertEquals(2, probe.acceptedBeforeHead.get(), "connections accepted while the probe waited");
        assertEquals(2, probe.handshakesBeforeHead.get(), "TLS handshakes done while the probe waited");
        // no connection beyond the four, and each carried requests: none wasted
        assertEquals(4, server.connectionsAccepted());
        assertEquals(Set.of(1, 2, 3, 4), connectionsUsed(server.requests()));
        TransferMetrics m = r.metrics();
        assertEquals(4, m.connectionsOpened(), m.toString());
        assertEquals(4, m.tlsHandshakes(), m.toString());
        assertEquals(m.requests() - 1, m.requestsOnReusedConnections(), "only the probe opened its connection: " + m);
      }
    }
  }

  @Test
  void aRangedDownloadTooShortToMeasureLetsTheNextOneWarm() throws Exception {
    try (TestServer server = TestServer.startTls(certificate)) {
      server.serve("/a", Content.random(16 << 20, 35)).etag("\"a\"");
      try (Braid braid = braid(HttpVersion.HTTP_1_1)) {
        DownloadHarness.await(braid.submit(DownloadRequest.builder(server.url("/a")).file(dir.resolve("a")).build()));
      }
      // what the first download ran and left for the next: 4 on an idle machine, fewer when a
      // loaded one kept the controller from ramping that far in 16 MiB
      int remembered;
      HostMemory m;
      try (Store store = Store.open(dir.resolve("state.db"))) {
        m = store.host("127.0.0.1:" + server.port()).orElseThrow();
        // a connection the loaded server was slow to take counts as refused: the limit it
        // taught caps the next start
        remembered = m.limit() > 0 ? Math.min(m.connections(), m.limit()) : m.connections();
      }
      assertTrue(remembered >= 2, "a ranged download remembers more than one connection: " + remembered);
      int before = server.connectionsAccepted();
      ProbeWatch probe = new ProbeWatch(server, before + 2, 0);
      server.serve("/b", Content.random(16 << 20, 36)).etag("\"b\"").onRequest(probe::hold);
      // a new Braid: no idle connection left in a pool, as for the next `braid get`
      try (Braid braid = braid(HttpVersion.HTTP_1_1)) {
        DownloadHarness.await(braid.submit(DownloadRequest.builder(server.url("/b")).file(dir.resolve("b")).build()));
      }
      // the length unknown, one warm beside the probe's; the rest of the remembered start after the head
      assertEquals(before + 2, probe.acceptedBeforeHead.get(), "the probe's and one warm, remembered: " + m);
      assertTrue(server.connectionsAccepted() - before >= remembered, "the remembered start was warmed: " + m);
    }
  }

  @Test
  void aHostWithoutMemoryGetsNoWarmConnections() throws Exception {
    try (TestServer server = TestServer.startTls(certificate)) {
      ProbeWatch probe = new ProbeWatch(server);
      server.serve("/small", Content.random(100 << 10, 32)).etag("\"s\"").onRequest(probe::hold);
      try (Braid braid = braid(HttpVersion.HTTP_1_1)) {
        DownloadResult r = DownloadHarness.await(braid.submit(DownloadRequest.builder(server.url("/small"))
            .file(dir.resolve("small.bin")).build()));
        assertEquals(100 << 10, r.length());
        assertEquals(1, probe.acceptedBeforeHead.get());
        assertEquals(1, server.connectionsAccepted());
        assertEquals(1, r.metrics().connectionsOpened());
      }
    }
  }

  @Test
  void aBatchOfSmallFilesFromARememberedHostOpensNoConnectionPerFile() throws Exception {
    int files = 30;
    try (TestServer server = TestServer.startTls(certificate)) {
      rememberHost(server, 4);
      for (int i = 0; i < files; i++) {
        server.serve("/f" + i, Content.random(100 << 10, i)).etag("\"" + i + "\"");
      }
      try (Braid braid = braid(HttpVersion.HTTP_1_1)) {
        for (int i = 0; i < files; i++) {
          DownloadHarness.await(braid.submit(DownloadRequest.builder(server.url("/f" + i)).file(dir.resolve("f" + i)).build()));
        }
      }
      // the first file warms one beside its probe (its length unknown); every later one finds an idle connection
      assertEquals(files, server.requests().size());
      assertTrue(server.connectionsAccepted() <= 2, "connections: " + server.connectionsAccepted());
    }
  }

  @Test
  void aFileOfOneFirstRequestAtEightConnectionsWarmsNoMoreThanItUses() throws Exception {
    // 3.6 MB: the probe's first request (4 MiB) takes all of it, so the length leaves nothing to
    // warm for; before the head, one connection is warmed on speculation. Issue 20: 8 were opened
    // for its 1 request, 7 never used. Connections the workers open themselves to split a slow
    // tail (a loaded machine) carry requests, so "used" is what the download ran, not 1.
    Content c = Content.random(3_600_000, 37);
    try (TestServer server = TestServer.startTls(certificate)) {
      rememberHost(server, 8);
      ProbeWatch probe = new ProbeWatch(server, 2, 2);
      server.serve("/mid", c).etag("\"m\"").onRequest(probe::hold);
      try (Braid braid = braid(HttpVersion.HTTP_1_1)) {
        DownloadResult r = DownloadHarness.await(braid.submit(DownloadRequest.builder(server.url("/mid"))
            .file(dir.resolve("mid.bin")).connections(8).build()));
        assertEquals(c.sha256Hex(), Content.sha256Hex(r.file()));
      }
      assertEquals(2, probe.acceptedBeforeHead.get(), "the probe's and one warm while the length was unknown");
      int used = connectionsUsed(server.requests()).size();
      assertTrue(server.connectionsAccepted() <= used + 1,
          () -> "accepted " + server.connectionsAccepted() + ", " + used + " carried requests: " + server.requests());
    }
  }

  @Test
  void connectionsTurnedAwayDuringTheWarmUpDoNotFailTheDownload() throws Exception {
    Content c = Content.random(16 << 20, 33);
    // plain http: the server closes the next three connections at accept, whichever they are (the
    // probe's connect races the warm ones); a closed warm connection is met by a worker's request
    try (TestServer server = TestServer.start(); Braid braid = braid(HttpVersion.HTTP_1_1)) {
      rememberHost(server, 4);
      server.serve("/big", c).etag("\"b\"");
      server.dropNextConnections(3);
      DownloadResult r = DownloadHarness.await(braid.submit(DownloadRequest.builder(server.url("/big"))
          .file(dir.resolve("big.bin")).build()));
      assertEquals(c.sha256Hex(), Content.sha256Hex(r.file()));
      assertEquals(3, server.connectionsDropped());
    }
  }

  /** Tells the store, as an earlier large download would have, that the server's host ran {@code n} connections. */
  private void rememberHost(TestServer server, int n) {
    try (Store store = Store.open(dir.resolve("state.db"))) {
      store.remember(new HostMemory("127.0.0.1:" + server.port(), 0, n, 50e6, System.currentTimeMillis()));
    }
  }

  private static Set<Integer> connectionsUsed(List<RequestRecord> requests) {
    Set<Integer> ids = new TreeSet<>();
    requests.forEach(q -> ids.add(q.connectionId()));
    return ids;
  }

  /** Holds the first request's response head for {@link #PROBE_DELAY_MILLIS}, then notes what the server had accepted. */
  private static final class ProbeWatch {
    final AtomicInteger seen = new AtomicInteger();
    final AtomicInteger acceptedBeforeHead = new AtomicInteger(-1);
    final AtomicInteger handshakesBeforeHead = new AtomicInteger(-1);
    private final TestServer server;
    private final int awaitedConnections;
    private final int awaitedHandshakes;

    /** Holds the probe's head for {@link #PROBE_DELAY_MILLIS}: to see that nothing else comes. */
    ProbeWatch(TestServer server) {
      this(server, Integer.MAX_VALUE, Integer.MAX_VALUE);
    }

    /**
     * Holds the probe's head until the server has accepted and handshaken that many connections
     * in all, or for 10 s: warm connections on a loaded machine can take longer than a fixed
     * delay, and the counts taken then still tell whether they came before the head.
     */
    ProbeWatch(TestServer server, int connections, int handshakes) {
      this.server = server;
      this.awaitedConnections = connections;
      this.awaitedHandshakes = handshakes;
    }

    void hold(RequestRecord r) {
      if (seen.getAndIncrement() > 0) {
        return;
      }
      boolean fixed = awaitedConnections == Integer.MAX_VALUE;
      long deadline = System.nanoTime() + (fixed ? PROBE_DELAY_MILLIS : 10_000) * 1_000_000L;
      try {
        while (System.nanoTime() < deadline
            && (fixed || server.connectionsAccepted() < awaitedConnections || server.tlsHandshakes() < awaitedHandshakes)) {
          Thread.sleep(10);
        }
        if (!fixed) {
          // and a moment more, so that a connection too many would be counted too
          Thread.sleep(100);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      acceptedBeforeHead.set(server.connectionsAccepted());
      handshakesBeforeHead.set(server.tlsHandshakes());
    }
  }
}
