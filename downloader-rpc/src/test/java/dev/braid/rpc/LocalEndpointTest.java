package dev.braid.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.braid.core.Braid;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon's local socket in front of a real Braid: a real Unix domain socket client writes
 * lines and reads the answers and notifications; its file is this user's only; a wrong secret, bad
 * JSON, an over-long line and a client that never reads harm nothing but their own connection.
 */
class LocalEndpointTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration DELAY = Duration.ofMillis(300);

  @TempDir Path work;
  private TestServer server;
  private Braid braid;
  private RpcServer rpc;
  private Path socket;

  @BeforeEach
  void start() throws Exception {
    server = TestServer.start();
    braid = Braid.builder().stateDatabase(work.resolve("state.db")).downloadDirectory(work).runQueue(true).build();
    socket = work.resolve("state.db.rpc-socket");
    // a file left where the socket goes (a killed daemon's) is replaced
    Files.writeString(socket, "stale");
    rpc = RpcServer.start(braid, RpcSettings.builder(work, "k").port(0).unauthorizedDelay(DELAY).maxRequestBytes(4096)
        .localSocket(socket).build(), () -> { });
  }

  @AfterEach
  void stop() {
    rpc.close();
    braid.close();
    server.close();
  }

  /** A client of the socket: lines out, lines in. */
  private final class Client implements AutoCloseable {
    final SocketChannel channel;
    final OutputStream out;
    final BufferedReader in;
    final List<JsonNode> heard = new java.util.ArrayList<>();

    Client() throws IOException {
      channel = SocketChannel.open(StandardProtocolFamily.UNIX);
      channel.connect(UnixDomainSocketAddress.of(socket));
      out = Channels.newOutputStream(channel);
      in = new BufferedReader(new InputStreamReader(Channels.newInputStream(channel), StandardCharsets.UTF_8));
    }

    void send(String line) throws IOException {
      out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
    }

    JsonNode read() throws IOException {
      String line = in.readLine();
      return line == null ? null : JSON.readTree(line);
    }

    /** The answer to the call; notifications read meanwhile are kept for {@link #await}. */
    JsonNode call(String method, Object... params) throws IOException {
      send(request(method, params));
      for (JsonNode n = read(); n != null; n = read()) {
        if (n.has("id")) {
          return n;
        }
        heard.add(n);
      }
      throw new IOException("the connection ended before the answer to " + method);
    }

    /** Whether the notification {@code method} of {@code gid} comes (the connection's end says no). */
    boolean await(String method, String gid) throws IOException {
      for (JsonNode n = heard.isEmpty() ? read() : heard.remove(0); n != null; n = heard.isEmpty() ? read() : heard.remove(0)) {
        if (n.path("method").asText().equals(method) && n.path("params").path(0).path("gid").asText().equals(gid)) {
          return true;
        }
      }
      return false;
    }

    /** The lines left until the daemon closes the connection (a close with our lines unread resets it). */
    long linesUntilClosed() {
      long n = 0;
      try {
        while (in.readLine() != null) {
          n++;
        }
      } catch (IOException reset) {
        // closed by the daemon before it read all we sent
      }
      return n;
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }

  private static String request(String method, Object... params) {
    return JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 7).put("method", method)
        .set("params", JSON.valueToTree(List.of(params))).toString();
  }

  @Test
  void theSocketIsTheUsersOnlyAndGoesWithTheServer() throws Exception {
    assertEquals(java.util.Optional.of(socket), rpc.localSocket());
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket, LinkOption.NOFOLLOW_LINKS)));
    assertTrue(Files.readAttributes(socket, "unix:mode", LinkOption.NOFOLLOW_LINKS).get("mode") instanceof Integer m
        && (m & 0170000) == 0140000, "a socket, not the stale file that was there");
    try (var left = Files.list(work)) {
      assertTrue(left.noneMatch(p -> p.getFileName().toString().startsWith(".braid-rpc-")), "the folder it was bound in is gone");
    }
    rpc.close();
    assertFalse(Files.exists(socket, LinkOption.NOFOLLOW_LINKS), "closing the server removes its socket");
  }

  @Test
  void callsAndNotificationsShareTheConnection() throws Exception {
    server.serve("/one", Content.random(100_000, 3));
    try (Client c = new Client()) {
      JsonNode added = c.call("aria2.addUri", "token:k", List.of(server.url("/one")), Map.of("out", "one.bin"));
      String gid = added.get("result").asText();
      assertTrue(c.await("aria2.onDownloadComplete", gid), "the completion is heard on the socket");
      assertEquals("complete", c.call("aria2.tellStatus", "token:k", gid).get("result").get("status").asText());
      assertEquals(100_000, Files.size(work.resolve("one.bin")));
    }
  }

  @Test
  void aWrongSecretIsRefusedLateAndBadJsonIsAParseError() throws Exception {
    try (Client c = new Client()) {
      long t0 = System.nanoTime();
      JsonNode refused = c.call("aria2.tellActive", "token:wrong");
      assertEquals(1, refused.get("error").get("code").asInt(), refused::toString);
      assertEquals("Unauthorized", refused.get("error").get("message").asText());
      assertTrue(System.nanoTime() - t0 >= DELAY.toNanos(), "the answer to a wrong secret is held back");
      assertEquals(1, c.call("aria2.tellActive").get("error").get("code").asInt(), "no secret at all");
      c.send("{not json");
      assertEquals(-32700, c.read().get("error").get("code").asInt());
      assertTrue(c.call("aria2.tellActive", "token:k").get("result").isArray(), "the connection goes on");
    }
  }

  @Test
  void anOverlongLineClosesOnlyItsConnection() throws Exception {
    try (Client c = new Client()) {
      c.send("[" + "1,".repeat(4096) + "1]");
      assertEquals(0, c.linesUntilClosed(), "the daemon closed the connection without an answer");
    }
    try (Client c = new Client()) {
      assertTrue(c.call("aria2.tellActive", "token:k").get("result").isArray(), "the next client is served");
    }
  }

  @Test
  void aClientThatNeverReadsIsClosedAndTheOthersAreServed() throws Exception {
    try (Client hostile = new Client(); Client other = new Client()) {
      byte[] line = (request("system.listMethods") + "\n").getBytes(StandardCharsets.UTF_8);
      Thread flood = new Thread(() -> {
        try {
          for (int i = 0; i < 200_000; i++) {
            hostile.out.write(line);
          }
        } catch (IOException closed) {
          // the daemon closed it: what is asserted below
        }
      });
      flood.setDaemon(true);
      flood.start();
      flood.join(TimeUnit.SECONDS.toMillis(60));
      assertFalse(flood.isAlive(), "the daemon stopped reading a client that does not read its answers");
      assertTrue(other.call("aria2.tellActive", "token:k").get("result").isArray(), "another client is served meanwhile");
      long lines = hostile.linesUntilClosed();
      assertTrue(lines < 200_000, "the hostile client got " + lines + " answers before the close, not all");
    }
  }
}
