package dev.braid.testserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.RawClient.End;
import dev.braid.testserver.RawClient.Reply;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Keep-alive, connection counting, client aborts and shutdown. */
class ConnectionLifecycleTest {
  private final Content content = Content.random(50_000, 3);
  private TestServer server;

  @BeforeEach
  void start() throws IOException {
    server = TestServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + 3_000_000_000L;
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "timed out waiting until " + what);
      Thread.sleep(5);
    }
  }

  private static boolean connectionThreadsAlive() {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.getName().startsWith("testserver-") && t.isAlive());
  }

  @Test
  void urlAndPort() {
    assertTrue(server.port() > 0);
    assertEquals("http://127.0.0.1:" + server.port() + "/a/b", server.url("/a/b"));
    assertThrows(IllegalArgumentException.class, () -> server.serve("no-slash", content));
    assertThrows(IllegalArgumentException.class, () -> server.redirect("/a", "/b", 200));
  }

  @Test
  void keepAliveReusesOneConnection() throws IOException {
    server.serve("/f", content);
    try (RawClient client = new RawClient(server)) {
      assertEquals(End.COMPLETE, client.exchange("GET", "/f").end());
      assertEquals(End.COMPLETE, client.exchange("GET", "/f", "Range: bytes=0-99").end());
    }
    assertEquals(1, server.connectionsAccepted());
    assertEquals(List.of(1, 1), server.requests().stream().map(RequestRecord::connectionId).toList());
    assertEquals(50_100, server.bodyBytesSent());
  }

  @Test
  void connectionCloseIsHonoured() throws IOException {
    server.serve("/f", content);
    try (RawClient client = new RawClient(server)) {
      Reply r = client.exchange("GET", "/f", "Connection: close");
      assertEquals(End.COMPLETE, r.end());
      assertEquals("close", r.header("Connection"));
      assertEquals(0, client.drain(), "then a clean EOF");
    }
    try (RawClient client = new RawClient(server)) {
      client.sendRaw("GET /f HTTP/1.0\r\n\r\n");
      assertEquals("close", client.read(false).header("Connection"));
      assertEquals(0, client.drain(), "HTTP/1.0 closes by default");
    }
    try (RawClient client = new RawClient(server)) {
      client.sendRaw("GET /f HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
      client.read(false);
      client.sendRaw("GET /f HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
      assertEquals(200, client.read(false).status(), "HTTP/1.0 keep-alive on request");
    }
    assertEquals(3, server.connectionsAccepted());
  }

  @Test
  void countsConcurrentConnections() throws Exception {
    server.serve("/f", content);
    List<RawClient> clients = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      clients.add(new RawClient(server));
    }
    for (RawClient c : clients) {
      assertEquals(200, c.exchange("GET", "/f").status());
    }
    assertEquals(3, server.openConnections());
    for (RawClient c : clients) {
      c.close();
    }
    await(() -> server.openConnections() == 0, "the server saw the clients close");
    assertEquals(3, server.peakConcurrentConnections());
    assertEquals(3, server.connectionsAccepted());
  }

  @Test
  void clientAbortMidBodyIsQuiet() throws Exception {
    Resource big = server.serve("/big", Content.random(64L << 20, 1));
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    PrintStream original = System.err;
    System.setErr(new PrintStream(stderr, true));
    try {
      for (boolean reset : new boolean[] {false, true}) {
        RawClient client = new RawClient(server);
        client.send("GET", "/big");
        client.socket.getInputStream().readNBytes(10_000);
        client.socket.setSoLinger(reset, 0);
        client.close();
      }
      await(() -> server.openConnections() == 0, "the server noticed both aborts");
    } finally {
      System.setErr(original);
    }
    assertEquals("", stderr.toString());
    assertTrue(big.bodyBytesSent() < 64L << 20, "stopped sending: " + big.bodyBytesSent());
    assertEquals(big.bodyBytesSent(), server.bodyBytesSent());
  }

  @Test
  void idleKeepAliveConnectionEndsWhenTheClientCloses() throws Exception {
    Socket idle = new Socket("127.0.0.1", server.port());
    await(() -> server.openConnections() == 1, "accepted");
    idle.close();
    await(() -> server.openConnections() == 0, "closed");
  }

  @Test
  void closeStopsStalledConnectionsQuickly() throws Exception {
    server.serve("/f", content).stallAfter(1000, Duration.ofSeconds(60), 2);
    RawClient a = new RawClient(server);
    RawClient b = new RawClient(server);
    RawClient idle = new RawClient(server);
    a.send("GET", "/f");
    b.send("GET", "/f");
    a.socket.getInputStream().readNBytes(1000);
    b.socket.getInputStream().readNBytes(1000);
    await(() -> server.openConnections() == 3, "three connections open");

    long start = System.nanoTime();
    server.close();
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(millis < 2500, "close took " + millis + " ms");
    assertFalse(connectionThreadsAlive(), "all server threads ended");
    for (RawClient c : List.of(a, b, idle)) {
      assertTrue(c.drain() < 1000, "client sees the connection end, mid-stall for a and b");
      c.close();
    }
    server.close(); // idempotent
    assertThrows(IOException.class, () -> new Socket("127.0.0.1", server.port()).close());
  }
}
