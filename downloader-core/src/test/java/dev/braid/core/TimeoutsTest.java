package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Each tier of timeout trips on its own kind of silence, and the download recovers where it can. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TimeoutsTest extends DownloadHarness {
  @Override
  Braid newBraid() throws LocalFileException {
    return Braid.builder().stateDatabase(dir.resolve("state.db"))
        .connectTimeout(Duration.ofSeconds(2)).tlsHandshakeTimeout(Duration.ofMillis(500))
        .firstByteTimeout(Duration.ofMillis(500)).readTimeout(Duration.ofSeconds(1))
        .maxRetries(2).firstBackoff(Duration.ofMillis(20)).lowestSpeed(0).build();
  }

  @Test
  void aStalledBodyTripsTheIdleReadTimeoutAndTheRangeIsRetried() throws Exception {
    Content c = Content.random(4 << 20, 11);
    server.serve("/f", c).etag("\"s\"").stallAfter(1 << 20, Duration.ofSeconds(20), 1);
    long start = System.nanoTime();
    DownloadResult r = get(request("/f", dir.resolve("f.bin")).connections(1));
    assertEquals(sha256(c), sha256(r.file()));
    assertTrue(r.metrics().retries() >= 1, r.metrics().toString());
    assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10), "the stall was cut short, not waited out");
    assertTrue(server.requests().size() >= 2);
  }

  @Test
  void aServerSlowToAnswerTripsTheFirstByteTimeoutNotTheReadTimeout() throws Exception {
    Content c = Content.random(1 << 20, 12);
    AtomicBoolean first = new AtomicBoolean(true);
    server.serve("/f", c).etag("\"t\"").onRequest(rec -> {
      if (first.getAndSet(false)) {
        sleep(3_000);
      }
    });
    long start = System.nanoTime();
    DownloadResult r = get(request("/f", dir.resolve("f.bin")).connections(1));
    long took = System.nanoTime() - start;
    assertEquals(sha256(c), sha256(r.file()));
    assertEquals(1, r.metrics().retries());
    assertTrue(took < TimeUnit.MILLISECONDS.toNanos(2_500), "given up after 0.5 s, not 3 s: " + took / 1e6 + " ms");
  }

  @Test
  void aServerThatNeverCompletesTheTlsHandshakeTripsItsTimeout() throws Exception {
    List<Socket> held = new ArrayList<>();
    try (ServerSocket silent = new ServerSocket()) {
      silent.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      Thread acceptor = new Thread(() -> {
        try {
          while (true) {
            held.add(silent.accept());
          }
        } catch (Exception closed) {
          // the test is over
        }
      });
      acceptor.setDaemon(true);
      acceptor.start();
      long start = System.nanoTime();
      NetworkException e = assertThrows(NetworkException.class, () -> get(DownloadRequest.builder(
          "https://127.0.0.1:" + silent.getLocalPort() + "/f").file(dir.resolve("t.bin"))));
      long took = System.nanoTime() - start;
      assertTrue(took < TimeUnit.SECONDS.toNanos(5), "three tries of 0.5 s, not the 1 s read or 2 s connect limit: "
          + took / 1e6 + " ms; " + e.getMessage());
      assertTrue(held.size() >= 1);
    } finally {
      for (Socket s : held) {
        s.close();
      }
    }
  }

  @Test
  void theDeadlineStopsASlowDownloadAndItsBytesAreResumedLater() throws Exception {
    Content c = Content.random(2 << 20, 13);
    var resource = server.serve("/f", c).etag("\"d\"").rateLimitPerConnection(256 << 10);
    Path file = dir.resolve("f.bin");
    try (Braid limited = Braid.builder().stateDatabase(dir.resolve("state2.db")).deadline(Duration.ofMillis(1500))
        .build()) {
      long start = System.nanoTime();
      NetworkException e = assertThrows(NetworkException.class,
          () -> await(limited.submit(request("/f", file).connections(1).build())));
      assertTrue(e.getMessage().contains("deadline"), e.getMessage());
      assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(4));
    }
    assertTrue(Files.size(dir.resolve("f.bin.part")) > 0);
    resource.rateLimitPerConnection(0);
    try (Braid again = Braid.builder().stateDatabase(dir.resolve("state2.db")).build()) {
      DownloadResult r = await(again.submit(request("/f", file).connections(1).build()));
      assertTrue(r.bytesReused() > 0, "resumed: " + r);
      assertEquals(sha256(c), sha256(file));
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
