package dev.braid.core.internal.http;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.TransferMetrics;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestCertificate;
import dev.braid.testserver.TestServer;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The transport's warm-up against real sockets: warm connections land in the pool on the route
 * a request takes, and cancelling closes connections still in their handshake.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConnectionWarmupTest {
  private final ExecutorService threads = Executors.newCachedThreadPool();

  @AfterEach
  void stopThreads() {
    threads.shutdownNow();
  }

  @Test
  void aRequestAfterTheWarmUpRunsOnAWarmConnection() throws Exception {
    try (TestServer server = TestServer.start();
        HttpTransport http = new HttpTransport(TestSettings.plain(Duration.ofSeconds(10)))) {
      server.serve("/f", Content.random(1000, 1)).etag("\"f\"");
      URI uri = URI.create(server.url("/f"));
      PhaseRecorder recorder = new PhaseRecorder();
      ConnectionWarmup warm = http.warm(uri, 2, false, recorder, threads, RequestProxy.ENGINE);
      assertTrue(warm.awaitSettled(Duration.ofSeconds(10)));
      assertEquals(2, warm.opened());
      awaitAccepted(server, 2);

      try (Exchange ex = http.get(Protocol.HTTP_1_1, uri, Map.of(), OriginHeaders.NONE, recorder, RequestProxy.ENGINE)) {
        assertEquals(200, ex.status());
      }
      assertEquals(2, server.connectionsAccepted(), "the request leased a warm connection");
      TransferMetrics m = recorder.snapshot(0);
      assertEquals(2, m.connectionsOpened(), "the warm connects are the download's: " + m);
      assertEquals(1, m.requestsOnReusedConnections(), "a warm connection counts as reused: " + m);
    }
  }

  @Test
  void aRouteWithAnIdleConnectionIsNotWarmed() throws Exception {
    try (TestServer server = TestServer.start();
        HttpTransport http = new HttpTransport(TestSettings.plain(Duration.ofSeconds(10)))) {
      URI uri = URI.create(server.url("/f"));
      assertTrue(http.warm(uri, 3, false, new PhaseRecorder(), threads, RequestProxy.ENGINE).awaitSettled(Duration.ofSeconds(10)));
      assertEquals(ConnectionWarmup.NONE, http.warm(uri, 3, false, new PhaseRecorder(), threads, RequestProxy.ENGINE));
      awaitAccepted(server, 3);
    }
  }

  @Test
  void theWarmUpLeavesASlotForTheProbe() throws Exception {
    try (TestServer server = TestServer.start();
        HttpTransport http = new HttpTransport(TestSettings.plain(Duration.ofSeconds(10)))) {
      ConnectionWarmup warm = http.warm(URI.create(server.url("/f")), 20, false, new PhaseRecorder(), threads, RequestProxy.ENGINE);
      assertTrue(warm.awaitSettled(Duration.ofSeconds(10)));
      assertEquals(7, warm.opened(), "8 per host, less the probe's");
    }
  }

  @Test
  void connectionsTheServerTurnsAwayAreNotPooled() throws Exception {
    try (TestCertificate certificate = TestCertificate.generate();
        TestServer server = TestServer.startTls(certificate);
        HttpTransport http = new HttpTransport(TestSettings.trusting(certificate.pemFile()))) {
      server.serve("/f", Content.random(1000, 1)).etag("\"f\"");
      URI uri = URI.create(server.url("/f"));
      server.dropNextConnections(2);
      ConnectionWarmup warm = http.warm(uri, 2, false, new PhaseRecorder(), threads, RequestProxy.ENGINE);
      assertTrue(warm.awaitSettled(Duration.ofSeconds(10)));
      assertEquals(0, warm.opened(), "both handshakes failed");
      PhaseRecorder recorder = new PhaseRecorder();
      try (Exchange ex = http.get(Protocol.HTTP_1_1, uri, Map.of(), OriginHeaders.NONE, recorder, RequestProxy.ENGINE)) {
        assertEquals(200, ex.status());
      }
      awaitAccepted(server, 3);
      assertEquals(0, recorder.snapshot(0).requestsOnReusedConnections());
    }
  }

  /**
   * Waits until the server's acceptor has caught up with {@code n} connections (the client's
   * connect completes in the kernel first), then checks that no more came.
   */
  private static void awaitAccepted(TestServer server, int n) throws InterruptedException {
    await(n + " connections accepted").atMost(Duration.ofSeconds(5)).until(() -> server.connectionsAccepted() >= n);
    Thread.sleep(50);
    assertEquals(n, server.connectionsAccepted());
  }

  @Test
  void cancellingClosesConnectionsStillInTheirHandshake() throws Exception {
    int n = 3;
    CountDownLatch accepted = new CountDownLatch(n);
    CountDownLatch closedByClient = new CountDownLatch(n);
    // a TCP server that never answers the TLS handshake: each warm connection hangs in it
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        HttpTransport http = new HttpTransport(TestSettings.plain(Duration.ofSeconds(10)))) {
      threads.execute(() -> {
        for (int i = 0; i < n; i++) {
          try {
            Socket s = silent.accept();
            accepted.countDown();
            threads.execute(() -> {
              try (s; InputStream in = s.getInputStream()) {
                while (in.read() >= 0) {
                  // the ClientHello; nothing is answered
                }
                closedByClient.countDown();
              } catch (Exception e) {
                closedByClient.countDown();
              }
            });
          } catch (Exception e) {
            return;
          }
        }
      });
      InetSocketAddress at = (InetSocketAddress) silent.getLocalSocketAddress();
      ConnectionWarmup warm = http.warm(URI.create("https://127.0.0.1:" + at.getPort() + "/f"), n, false, new PhaseRecorder(), threads,
          RequestProxy.ENGINE);
      assertTrue(accepted.await(10, TimeUnit.SECONDS));
      long start = System.nanoTime();
      warm.cancel();
      // the handshake limit is 5 s: closed well before it, the sockets were closed by the cancel
      assertTrue(closedByClient.await(2, TimeUnit.SECONDS), "half-warmed connections left open");
      assertTrue(warm.awaitSettled(Duration.ofSeconds(2)));
      assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(4));
      assertEquals(0, warm.opened());
    }
  }
}
