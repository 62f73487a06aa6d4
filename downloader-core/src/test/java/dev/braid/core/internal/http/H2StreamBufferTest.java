package dev.braid.core.internal.http;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.time.Ticker;
import dev.braid.testserver.Content;
import dev.braid.testserver.H2TestServer;
import dev.braid.testserver.Resource;
import dev.braid.testserver.TestCertificate;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What HTTP/2 streams hold in memory, seen from the server: a body byte counts as sent when the
 * server's HTTP/2 layer takes it, which flow control allows only within the window the client
 * granted, so sent minus read is at most what the client buffers plus what is on the wire.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class H2StreamBufferTest {
  private static final int STREAMS = 16;
  /** The most all streams may hold: the shared budget plus each stream's initial window. */
  private static final long BOUND = H2Transport.BUFFER_BUDGET + (long) STREAMS * H2Transport.INITIAL_WINDOW;
  private static TestCertificate certificate;

  @BeforeAll
  static void makeCertificate() throws Exception {
    certificate = TestCertificate.generate();
  }

  @AfterAll
  static void dropCertificate() throws Exception {
    certificate.close();
  }

  @Test
  void sixteenStreamsReadSlowlyHoldOneBudgetInTotal() throws Exception {
    // 16 ranges of 5 MiB: 80 MiB would all be on its way with 16 MiB windows, over twice the bound
    long range = 5L << 20;
    Content c = Content.random(STREAMS * range, 81);
    try (H2TestServer server = H2TestServer.start(certificate);
        HttpTransport http = new HttpTransport(TestSettings.trusting(certificate.pemFile()), true)) {
      Resource r = server.serve("/big", c).etag("\"b\"");
      URI uri = URI.create(server.url("/big"));
      List<Exchange> open = new ArrayList<>();
      for (int i = 0; i < STREAMS; i++) {
        open.add(http.get(Protocol.HTTP_2, uri, Map.of("Range", "bytes=" + i * range + "-" + ((i + 1) * range - 1)),
            OriginHeaders.NONE, new PhaseRecorder(), RequestProxy.ENGINE));
      }
      long unread = awaitSettled(r);
      // nothing read yet: every stream holds only the window it opened with
      assertTrue(unread <= (long) STREAMS * H2Transport.INITIAL_WINDOW, "sent before any read: " + unread);

      byte[] buffer = new byte[256 << 10];
      byte[] expected = new byte[buffer.length];
      long consumed = 0;
      long most = 0;
      for (long offset = 0; offset < range; offset += buffer.length) {
        for (int i = 0; i < STREAMS; i++) {
          InputStream in = open.get(i).body();
          int n = in.readNBytes(buffer, 0, buffer.length);
          assertEquals(buffer.length, n);
          c.read(i * range + offset, expected, 0, n);
          assertArrayEquals(expected, buffer, "stream " + i + " at " + offset);
          consumed += n;
          long held = r.bodyBytesSent() - consumed;
          most = Math.max(most, held);
          assertTrue(held <= BOUND, "sent but unread: " + held + " > " + BOUND);
        }
      }
      for (Exchange e : open) {
        assertEquals(-1, e.body().read(), "the whole range, no more");
        e.close();
      }
      assertEquals(c.size(), r.bodyBytesSent());
      assertTrue(most > 8L << 20, "the windows grew past the initial ones as the streams were read: " + most);
      assertEquals(1, server.connectionsAccepted());
    }
  }

  @Test
  void aWholeFileAnsweredToRangedRequestsIsHeldNoFurtherThanTheInitialWindow() throws Exception {
    Content c = Content.random(64L << 20, 82);
    try (H2TestServer server = H2TestServer.start(certificate);
        HttpTransport http = new HttpTransport(TestSettings.trusting(certificate.pemFile()), true)) {
      // Apache answers 200 to an If-Range it deems weak (a file modified within the last second)
      Resource r = server.serve("/f", c).lastModified(java.time.Instant.now()).ignoreRange(true);
      URI uri = URI.create(server.url("/f"));
      List<Exchange> open = new ArrayList<>();
      for (int i = 0; i < STREAMS; i++) {
        open.add(http.get(Protocol.HTTP_2, uri, Map.of("Range", "bytes=" + (i << 22) + "-" + ((i + 1 << 22) - 1)),
            OriginHeaders.NONE, new PhaseRecorder(), RequestProxy.ENGINE));
      }
      for (Exchange e : open) {
        assertEquals(200, e.status());
      }
      long sent = awaitSettled(r);
      assertTrue(sent <= (long) STREAMS * H2Transport.INITIAL_WINDOW, "16 unread 64 MiB bodies sent " + sent);
      open.forEach(Exchange::abort);
    }
  }

  @Test
  void aFailureInTheConsumerEndsTheReadersWaitAtOnce() throws Exception {
    WindowBudget budget = new WindowBudget(1 << 20, 64 << 10, 1 << 20);
    StreamBody body = new StreamBody(Duration.ofSeconds(30), budget, new H2Connections(Ticker.SYSTEM));
    CompletableFuture<Throwable> reader = CompletableFuture.supplyAsync(() -> {
      try {
        body.read(new byte[10], 0, 10);
        return null;
      } catch (IOException e) {
        return e;
      }
    });
    // what the reactor would hand over if something of ours broke on its thread: it must not
    // throw into the reactor, and the reader, which would otherwise wait out its 30 s, must see it
    body.consume(null);
    Throwable seen = reader.get(5, TimeUnit.SECONDS);
    assertTrue(seen instanceof IOException && seen.getMessage().contains("internal error"), String.valueOf(seen));
    assertThrows(IOException.class, () -> body.read(new byte[1], 0, 1), "the stream stays failed");
    // its credit went back: a new stream may grow to the whole budget
    assertEquals(1 << 20, budget.refill(0, 0));
  }

  /** Waits until the server has sent nothing more for 300 ms (the windows are full), at most 10 s; returns what it sent. */
  private static long awaitSettled(Resource r) {
    AtomicLong last = new AtomicLong(-1);
    // the quiet 300 ms is the measure: two polls that far apart see the same count
    await("the server stopped sending").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(300))
        .until(() -> {
          long now = r.bodyBytesSent();
          return now > 0 && now == last.getAndSet(now);
        });
    return last.get();
  }
}
