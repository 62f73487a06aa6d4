package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Seen from an HTTPS server: the ranges of one download share a few kept-alive connections, a
 * batch of small files goes over the same connection, and new connections resume the TLS
 * session instead of a full handshake. The client's metrics agree with what the server counted.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConnectionReuseTest extends TlsHarness {

  @Test
  void theRangesOfOneDownloadShareFewConnections() throws Exception {
    Content c = Content.random(24 << 20, 21);
    try (TestServer server = TestServer.startTls(certificate); Braid braid = braid(HttpVersion.HTTP_1_1)) {
      server.serve("/big", c).etag("\"b\"");
      DownloadResult r = get(braid, server.url("/big"), "big.bin", 4);
      assertEquals(c.sha256Hex(), Content.sha256Hex(r.file()));
      int requests = server.requests().size();
      assertTrue(server.connectionsAccepted() <= 4, "connections: " + server.connectionsAccepted());
      assertTrue(requests > server.connectionsAccepted(), requests + " requests on " + server.connectionsAccepted());
      TransferMetrics m = r.metrics();
      assertEquals(server.connectionsAccepted(), m.connectionsOpened(), m.toString());
      assertEquals(server.tlsHandshakes(), m.tlsHandshakes(), m.toString());
      assertEquals(requests, m.requests(), m.toString());
      assertEquals(requests - server.connectionsAccepted(), m.requestsOnReusedConnections(), m.toString());
    }
  }

  @Test
  void aBatchOfSmallFilesOnOneBraidReusesOneConnection() throws Exception {
    try (TestServer server = TestServer.startTls(certificate); Braid braid = braid(HttpVersion.HTTP_1_1)) {
      int files = 30;
      for (int i = 0; i < files; i++) {
        server.serve("/f" + i, Content.random(100 << 10, i)).etag("\"" + i + "\"");
      }
      long start = System.nanoTime();
      TransferMetrics last = null;
      for (int i = 0; i < files; i++) {
        last = get(braid, server.url("/f" + i), "f" + i, 0).metrics();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      assertEquals(files, server.requests().size());
      assertEquals(1, server.connectionsAccepted(), "one connection for the whole batch");
      assertEquals(1, server.tlsHandshakes());
      assertEquals(0, last.connectionsOpened());
      assertEquals(1.0, last.connectionReuseRatio());
      System.out.printf("batch: %d files of 100 KiB over https in %.2f s (%.0f files/s), %d connection%n",
          files, seconds, files / seconds, server.connectionsAccepted());
    }
  }

  @Test
  void aQueueOfSmallFilesFiveAtOnceKeepsItsFiveConnectionsAcrossDownloads() throws Exception {
    int files = 40;
    try (TestServer server = TestServer.startTls(certificate);
        Braid braid = Braid.builder().stateDatabase(dir.resolve("state.db")).caCertificates(certificate.pemFile())
            .maxActiveDownloads(5).build()) {
      java.util.List<Download> all = new java.util.ArrayList<>();
      for (int i = 0; i < files; i++) {
        server.serve("/q" + i, Content.random(50 << 10, 200 + i)).etag("\"q" + i + "\"");
      }
      for (int i = 0; i < files; i++) {
        all.add(braid.submit(DownloadRequest.builder(server.url("/q" + i)).file(dir.resolve("q" + i)).build()));
      }
      for (Download d : all) {
        DownloadHarness.await(d);
      }
      // each file whole in its probe's response, and a download that ends leaves its
      // connection, TLS session and all, to the next one the queue starts
      assertEquals(files, server.requests().size(), "one request per file");
      assertTrue(server.connectionsAccepted() <= 5, "connections: " + server.connectionsAccepted());
      assertEquals(server.connectionsAccepted(), server.tlsHandshakes(), "one handshake per connection, none per file");
    }
  }

  @Test
  void newConnectionsResumeTheTlsSession() throws Exception {
    try (TestServer server = TestServer.startTls(certificate); Braid braid = braid(HttpVersion.HTTP_1_1)) {
      int files = 5;
      for (int i = 0; i < files; i++) {
        // no Content-Length: the server closes each connection after its response, so every file needs a new one
        server.serve("/f" + i, Content.random(10 << 10, i)).etag("\"" + i + "\"").noContentLength(true);
      }
      long resumed = 0;
      long handshakes = 0;
      for (int i = 0; i < files; i++) {
        TransferMetrics m = get(braid, server.url("/f" + i), "f" + i, 0).metrics();
        resumed += m.tlsResumed();
        handshakes += m.tlsHandshakes();
      }
      assertEquals(files, server.connectionsAccepted());
      assertEquals(files, server.tlsHandshakes());
      assertEquals(files - 1, server.tlsResumed(), "all but the first resumed");
      assertEquals(server.tlsHandshakes(), handshakes);
      assertEquals(server.tlsResumed(), resumed, "the client sees the same resumptions as the server");
    }
  }

  private DownloadResult get(Braid braid, String url, String name, int connections) throws Exception {
    DownloadRequestBuilder b = DownloadRequest.builder(url).file(dir.resolve(name));
    if (connections > 0) {
      b.connections(connections);
    }
    return DownloadHarness.await(braid.submit(b.build()));
  }
}
