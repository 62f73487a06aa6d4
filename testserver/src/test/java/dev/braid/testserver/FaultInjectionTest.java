package dev.braid.testserver;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.RawClient.End;
import dev.braid.testserver.RawClient.Reply;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Each fault knob, observed as bytes and connection ends on the wire. */
class FaultInjectionTest {
  private static final int SIZE = 200_000;
  private final Content content = Content.random(SIZE, 5);
  private TestServer server;

  @BeforeEach
  void start() throws IOException {
    server = TestServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private byte[] slice(long offset, int len) {
    byte[] b = new byte[len];
    content.read(offset, b, 0, len);
    return b;
  }

  private Reply get(String path, String... headers) throws IOException {
    try (RawClient client = new RawClient(server)) {
      return client.exchange("GET", path, headers);
    }
  }

  @Test
  void anExpiringTokenWorksForItsBytesThenGets403AndAFreshOneWorks() throws IOException {
    Resource f = server.serve("/f", content).expiringTokens(SIZE + 1);
    assertEquals(403, get("/f").status(), "no token");
    assertEquals(403, get("/f?token=made-up").status(), "an unknown token");
    String t = f.freshToken();
    Reply first = get("/f?token=" + t);
    assertEquals(200, first.status());
    assertArrayEquals(slice(0, SIZE), first.body());
    assertEquals(206, get("/f?token=" + t, "Range: bytes=0-0").status(), "one byte left in its budget");
    assertEquals(403, get("/f?token=" + t, "Range: bytes=0-0").status(), "its budget is spent");
    assertEquals(206, get("/f?a=1&token=" + f.freshToken(), "Range: bytes=5-9").status());
  }

  @Test
  void goAwayRefusesConnectionsThenServesAgainOnTheSamePort() throws Exception {
    server.serve("/f", content);
    int port = server.port();
    server.goAway(Duration.ofMillis(500));
    assertTrue(server.isAway());
    assertThrows(java.net.ConnectException.class, () -> new java.net.Socket("127.0.0.1", port).close(), "refused while away");
    await("back after going away").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).until(() -> !server.isAway());
    assertEquals(port, server.port());
    Reply back = get("/f");
    assertEquals(200, back.status(), "served again on the same port");
    assertArrayEquals(slice(0, SIZE), back.body());
  }

  @Test
  void dropResetsAfterTheGivenBytesForTheGivenTimes() throws IOException {
    Resource f = server.serve("/f", content).dropAfter(1000, 2);
    for (int i = 0; i < 2; i++) {
      Reply dropped = get("/f", "Range: bytes=100-");
      assertEquals(206, dropped.status());
      assertEquals(String.valueOf(SIZE - 100), dropped.header("Content-Length"), "length declared in full");
      assertEquals(End.RESET, dropped.end());
      assertArrayEquals(slice(100, 1000), dropped.body());
    }
    Reply whole = get("/f");
    assertEquals(End.COMPLETE, whole.end());
    assertArrayEquals(slice(0, SIZE), whole.body());
    assertEquals(2000 + SIZE, f.bodyBytesSent());
  }

  @Test
  void faultsSkipBodiesTheyCannotAffect() throws IOException {
    server.serve("/f", content).truncateAfter(1000, 1);
    assertEquals(End.COMPLETE, get("/f", "Range: bytes=0-999").end(), "1000-byte body: nothing to cut");
    assertEquals(End.EOF, get("/f", "Range: bytes=0-1000").end(), "still armed for the next longer body");
    assertEquals(End.COMPLETE, get("/f", "Range: bytes=0-1000").end(), "used up");
  }

  @Test
  void truncateEndsWithACleanEofAfterTheGivenBytes() throws IOException {
    Resource f = server.serve("/f", content).truncateAfter(12_345, 1);
    Reply cut = get("/f");
    assertEquals(200, cut.status());
    assertEquals(String.valueOf(SIZE), cut.header("Content-Length"));
    assertEquals(End.EOF, cut.end());
    assertArrayEquals(slice(0, 12_345), cut.body());
    assertEquals(12_345, f.bodyBytesSent());
    assertEquals(End.COMPLETE, get("/f").end());
  }

  @Test
  void stallPausesThenCompletes() throws IOException {
    server.serve("/f", content).stallAfter(5000, Duration.ofMillis(400), 1);
    try (RawClient client = new RawClient(server)) {
      client.send("GET", "/f");
      long start = System.nanoTime();
      Reply r = client.read(false);
      long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
      assertEquals(End.COMPLETE, r.end());
      assertArrayEquals(slice(0, SIZE), r.body());
      assertTrue(elapsedMillis >= 350, "stalled only " + elapsedMillis + " ms");
    }
    long start = System.nanoTime();
    assertEquals(End.COMPLETE, get("/f").end());
    assertTrue(System.nanoTime() - start < 300_000_000L, "the second response does not stall");
  }

  @Test
  void trickleSendsTheRestSlowlyThenOnlyOnce() throws IOException {
    // the last 2000 bytes at 4000 B/s: about half a second
    server.serve("/f", content).trickleAfter(SIZE - 2000, 4000, 1);
    try (RawClient client = new RawClient(server)) {
      client.send("GET", "/f");
      long start = System.nanoTime();
      Reply r = client.read(false);
      long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
      assertEquals(End.COMPLETE, r.end());
      assertArrayEquals(slice(0, SIZE), r.body());
      assertTrue(elapsedMillis >= 350, "trickled only " + elapsedMillis + " ms");
    }
    long start = System.nanoTime();
    assertEquals(End.COMPLETE, get("/f").end());
    assertTrue(System.nanoTime() - start < 300_000_000L, "the second response is not trickled");
  }

  @Test
  void stallEndsEarlyWhenTheClientLeaves() throws Exception {
    server.serve("/f", content).stallAfter(1000, Duration.ofSeconds(30), 1);
    try (RawClient client = new RawClient(server)) {
      client.send("GET", "/f");
      client.socket.getInputStream().readNBytes(100);
    }
    await("the stalled connection noticed the client left").atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(10))
        .until(() -> server.openConnections() == 0);
  }

  @Test
  void failNextAnswersWithTheStatusThenRecovers() throws IOException {
    server.serve("/f", content).failNext(503, 2, 7);
    try (RawClient client = new RawClient(server)) {
      for (int i = 0; i < 2; i++) {
        Reply failed = client.exchange("GET", "/f");
        assertEquals(503, failed.status());
        assertEquals("7", failed.header("Retry-After"));
      }
      assertEquals(200, client.exchange("GET", "/f").status());
    }
    server.serve("/g", content).failNext(429, 1, null);
    Reply limited = get("/g");
    assertEquals(429, limited.status());
    assertNull(limited.header("Retry-After"));
    assertEquals(0, server.serve("/h", content).bodyBytesSent());
  }

  @Test
  void maxConcurrentRequestsRejectsTheExcessWith503() throws Exception {
    Resource f = server.serve("/f", content).maxConcurrentRequests(1)
        .stallAfter(1000, Duration.ofSeconds(5), 1);
    try (RawClient slow = new RawClient(server)) {
      slow.send("GET", "/f");
      slow.socket.getInputStream().readNBytes(500); // the first request is now in flight, stalled
      Reply rejected = get("/f");
      assertEquals(503, rejected.status());
      assertEquals("1", rejected.header("Retry-After"));
    }
    f.stallAfter(0, Duration.ZERO, 0);
    await("the stalled request ended").atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(10))
        .until(() -> server.openConnections() == 0);
    assertEquals(200, get("/f").status(), "the slot was released when the stalled request ended");
  }

  @Test
  void shiftedContentRange() throws IOException {
    server.serve("/f", content).shiftContentRange(10);
    Reply r = get("/f", "Range: bytes=1000-1999");
    assertEquals(206, r.status());
    assertEquals("bytes 1010-2009/" + SIZE, r.header("Content-Range"));
    assertArrayEquals(slice(1010, 1000), r.body());
  }

  @Test
  void wrongTotal() throws IOException {
    server.serve("/f", content).wrongTotal(true);
    assertEquals("bytes 0-9/" + (SIZE + 1), get("/f", "Range: bytes=0-9").header("Content-Range"));
  }

  @Test
  void extraBytesAreDeclaredInContentLengthOnly() throws IOException {
    server.serve("/f", content).extraBytes(5);
    Reply r = get("/f", "Range: bytes=1000-1999");
    assertEquals("bytes 1000-1999/" + SIZE, r.header("Content-Range"));
    assertEquals("1005", r.header("Content-Length"));
    assertArrayEquals(slice(1000, 1005), r.body());

    Reply atEnd = get("/f", "Range: bytes=-10");
    byte[] expected = Arrays.copyOf(slice(SIZE - 10, 10), 15);
    assertArrayEquals(expected, atEnd.body(), "past the end: zeros");
  }

  @Test
  void ignoreRangeAnswers200WithEverything() throws IOException {
    server.serve("/f", content).ignoreRange(true);
    Reply r = get("/f", "Range: bytes=0-9");
    assertEquals(200, r.status());
    assertNull(r.header("Content-Range"));
    assertArrayEquals(slice(0, SIZE), r.body());
  }

  @Test
  void noContentLengthDelimitsTheBodyByClosing() throws IOException {
    server.serve("/f", content).noContentLength(true);
    Reply r = get("/f", "Range: bytes=0-9");
    assertEquals(200, r.status());
    assertNull(r.header("Content-Length"));
    assertEquals("close", r.header("Connection"));
    assertEquals(End.EOF, r.end());
    assertArrayEquals(slice(0, SIZE), r.body());
  }

  @Test
  void chunkedBodyKeepsTheConnection() throws IOException {
    server.serve("/f", content).chunked(true);
    try (RawClient client = new RawClient(server)) {
      for (int i = 0; i < 2; i++) {
        Reply r = client.exchange("GET", "/f", "Range: bytes=0-9");
        assertEquals(200, r.status());
        assertEquals("chunked", r.header("Transfer-Encoding"));
        assertNull(r.header("Content-Length"));
        assertEquals(End.COMPLETE, r.end());
        assertArrayEquals(slice(0, SIZE), r.body());
      }
    }
    assertEquals(1, server.connectionsAccepted());
  }

  @Test
  void chunkedBodyCanBeTruncated() throws IOException {
    server.serve("/f", content).chunked(true).truncateAfter(20_000, 1);
    Reply r = get("/f");
    assertEquals(End.EOF, r.end());
    assertArrayEquals(slice(0, 20_000), r.body());
  }

  @Test
  void rateLimitPacesEachConnection() throws IOException {
    Content mib = Content.random(1 << 20, 1);
    server.serve("/f", mib).rateLimitPerConnection(4 << 20);
    long start = System.nanoTime();
    Reply r = get("/f");
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertEquals(1 << 20, r.body().length);
    assertTrue(millis >= 200, "1 MiB at 4 MiB/s took only " + millis + " ms");
    assertTrue(millis < 1000, "1 MiB at 4 MiB/s took " + millis + " ms");
  }

  @Test
  void rateLimitIsSmoothForSmallBodies() throws IOException {
    server.serve("/f", content).rateLimitPerConnection(100_000);
    long start = System.nanoTime();
    assertEquals(End.COMPLETE, get("/f", "Range: bytes=0-19999").end());
    long millis = (System.nanoTime() - start) / 1_000_000;
    // 20 kB at 100 kB/s is 200 ms; a bucket that allowed a one-second burst would take ~0.
    assertTrue(millis >= 150, "20 kB at 100 kB/s took only " + millis + " ms");
  }
}
