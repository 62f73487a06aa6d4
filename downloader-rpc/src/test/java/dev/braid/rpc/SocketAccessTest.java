package dev.braid.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.core.Braid;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.net.http.WebSocketHandshakeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may open the WebSocket and who hears on it: a real server allowing one web origin, the
 * JDK's WebSocket client sending the Origin a browser would, and a real download's notifications.
 */
class SocketAccessTest {
  private static final String ALLOWED = "https://ui.example";

  @TempDir Path work;
  private TestServer server;
  private Braid braid;
  private RpcServer rpc;
  private RpcCalls calls;

  @BeforeEach
  void start() throws Exception {
    server = TestServer.start();
    braid = Braid.builder().stateDatabase(work.resolve("state.db")).downloadDirectory(work).runQueue(true).build();
    rpc = RpcServer.start(braid, RpcSettings.builder(work, "k").port(0).unauthorizedDelay(Duration.ZERO)
        .allowOrigin(ALLOWED).build(), () -> { });
    calls = new RpcCalls(rpc::port, "k");
  }

  @AfterEach
  void stop() {
    rpc.close();
    braid.close();
    server.close();
  }

  @Test
  void aWebPageFromAnotherOriginCannotOpenASocket() throws Exception {
    ExecutionException refused = assertThrows(ExecutionException.class, () -> SocketClient.open(rpc.port(), "https://evil.example"));
    assertTrue(refused.getCause() instanceof WebSocketHandshakeException, refused::toString);
    assertEquals(403, ((WebSocketHandshakeException) refused.getCause()).getResponse().statusCode());
    assertThrows(ExecutionException.class, () -> SocketClient.open(rpc.port(), "null"), "a sandboxed page's origin");
    for (String origin : new String[] {ALLOWED, null}) {
      try (SocketClient ok = SocketClient.open(rpc.port(), origin)) {
        JsonNode a = ok.call(calls.request("aria2.getVersion").toString());
        assertTrue(a.get("result").has("version"), "origin " + origin + ": " + a);
      }
    }
  }

  @Test
  void onlyASocketThatShowedTheSecretHearsTheNotifications() throws Exception {
    server.serve("/one", Content.random(50_000, 5));
    try (SocketClient silent = SocketClient.open(rpc.port(), null);
        SocketClient wrong = SocketClient.open(rpc.port(), null);
        SocketClient proven = SocketClient.open(rpc.port(), null)) {
      assertTrue(proven.call(calls.request("aria2.getVersion").toString()).has("result"));
      JsonNode refused = wrong.call(new RpcCalls(rpc::port, "guess").request("aria2.getVersion").toString());
      assertEquals("Unauthorized", refused.get("error").get("message").asText());
      // a method open to all with a wrong token does not prove it either
      assertTrue(wrong.call(new RpcCalls(rpc::port, "guess").request("system.listMethods").toString()).has("result"));

      String gid = calls.call("aria2.addUri", List.of(server.url("/one")), Map.of("out", "one.bin")).asText();
      List<String> heard = new java.util.ArrayList<>();
      while (!heard.contains("aria2.onDownloadComplete")) {
        JsonNode n = proven.next();
        assertEquals(gid, n.path("params").path(0).path("gid").asText(), n::toString);
        heard.add(n.get("method").asText());
      }
      assertEquals(List.of("aria2.onDownloadStart", "aria2.onDownloadComplete"), heard);
      // the same broadcasts went out before these answers: on a socket that heard them, they would come first
      for (SocketClient s : List.of(silent, wrong)) {
        JsonNode next = s.call(calls.request("system.listNotifications").toString());
        assertTrue(next.has("result"), "heard a notification without the secret: " + next);
        assertTrue(s.heard.isEmpty(), s.heard::toString);
      }
    }
  }
}
