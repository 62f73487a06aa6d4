package dev.braid.rpc;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.core.Braid;
import dev.braid.testserver.ConnectProxy;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * aria2's all-proxy per download through the RPC, in front of a real Braid whose own proxy is a
 * real HTTP proxy on loopback: the download's proxy wins for it alone, {@code direct} skips the
 * daemon's, changeOption and getOption see it, a restart of the daemon keeps it, bad values fail
 * the call with aria2's code 1.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProxyOptionTest {

  @TempDir Path work;
  private TestServer server;
  private ConnectProxy daemons;
  private ConnectProxy own;
  private Braid braid;
  private RpcServer rpc;
  private final RpcCalls calls = new RpcCalls(() -> rpc.port(), "k");

  @BeforeEach
  void start() throws Exception {
    server = TestServer.start();
    daemons = ConnectProxy.start();
    own = ConnectProxy.requiring("alice", "p@ss word");
    for (String p : List.of("/own", "/daemons", "/direct", "/later")) {
      server.serve(p, Content.random(1 << 20, p.length())).etag("\"x\"");
    }
    startDaemon();
  }

  private void startDaemon() throws Exception {
    braid = Braid.builder().stateDatabase(work.resolve("state.db")).downloadDirectory(work).runQueue(true)
        .proxy(daemons.url(), null).build();
    rpc = RpcServer.start(braid, RpcSettings.builder(work, "k").port(0).build(), () -> { });
  }

  private void stopDaemon() {
    rpc.close();
    braid.close();
  }

  @AfterEach
  void stop() throws Exception {
    stopDaemon();
    own.close();
    daemons.close();
    server.close();
  }

  @Test
  void aDownloadsProxyAndDirectWinOverTheDaemonsForThatDownloadOnly() throws Exception {
    String mine = add("/own", Map.of("all-proxy", own.url(), "all-proxy-user", "alice", "all-proxy-passwd", "p@ss word"));
    String theirs = add("/daemons", Map.of("all-proxy", ""));
    String direct = add("/direct", Map.of("all-proxy", "direct"));
    for (String gid : List.of(mine, theirs, direct)) {
      awaitStatus(gid, "complete");
    }
    assertEquals(server.requests().stream().filter(r -> r.path().equals("/own")).count(), through(own, "/own"));
    assertEquals(0, own.challenges(), "the user and password went to the download's proxy up front");
    assertEquals(server.requests().stream().filter(r -> r.path().equals("/daemons")).count(), through(daemons, "/daemons"));
    assertEquals(0, through(daemons, "/own") + through(own, "/daemons"));
    assertEquals(0, through(daemons, "/direct") + through(own, "/direct"));
    assertTrue(server.requests().stream().anyMatch(r -> r.path().equals("/direct")));

    JsonNode option = call("aria2.getOption", mine);
    assertEquals(own.url(), option.get("all-proxy").asText(), "the URL without its credentials");
    assertFalse(option.toString().contains("p@ss") || option.toString().contains("p%40ss"), option.toString());
    assertEquals("", call("aria2.getOption", theirs).get("all-proxy").asText());
    assertEquals("direct", call("aria2.getOption", direct).get("all-proxy").asText());
  }

  @Test
  void changeOptionSetsThePausedDownloadsProxyAndARestartKeepsIt() throws Exception {
    String later = add("/later", Map.of("pause", "true"));
    assertEquals("", call("aria2.getOption", later).get("all-proxy").asText());
    assertEquals("OK", call("aria2.changeOption", later, Map.of("all-proxy", "direct")).asText());
    assertEquals("direct", call("aria2.getOption", later).get("all-proxy").asText());
    stopDaemon();
    startDaemon();
    assertEquals("direct", call("aria2.getOption", later).get("all-proxy").asText(), "kept by the queue");
    call("aria2.unpause", later);
    awaitStatus(later, "complete");
    assertTrue(server.requests().stream().anyMatch(r -> r.path().equals("/later")));
    assertEquals(0, through(daemons, "/later"), "direct, not through the daemon's proxy");
  }

  @Test
  void badValuesFailTheCallWithAReasonAndChangeNothing() throws Exception {
    assertError(answer("aria2.addUri", List.of(server.url("/own")), Map.of("all-proxy", "ftp://127.0.0.1:21")),
        "unsupported proxy scheme ftp");
    assertError(answer("aria2.addUri", List.of(server.url("/own")), Map.of("all-proxy", "http://bob:hunter2@")),
        "names no host");
    assertError(answer("aria2.addUri", List.of(server.url("/own")), Map.of("all-proxy-user", "bob")),
        "all-proxy-user and all-proxy-passwd need a proxy URL");
    assertTrue(call("aria2.tellWaiting", 0, 10).isEmpty(), "nothing was added");
    String paused = add("/later", Map.of("pause", "true", "all-proxy", own.url()));
    assertError(answer("aria2.changeOption", paused, Map.of("all-proxy", "socks4://127.0.0.1:1080",
        "max-download-limit", "1K")), "unsupported proxy scheme socks4");
    assertEquals(own.url(), call("aria2.getOption", paused).get("all-proxy").asText(), "the proxy stayed");
  }

  private static void assertError(JsonNode answer, String reason) {
    assertTrue(answer.has("error"), answer::toString);
    assertEquals(1, answer.get("error").get("code").asInt(), answer::toString);
    String message = answer.get("error").get("message").asText();
    assertTrue(message.contains(reason), message);
    assertFalse(message.contains("hunter2"), message);
  }

  private String add(String path, Map<String, String> options) throws Exception {
    return call("aria2.addUri", List.of(server.url(path)), options).asText();
  }

  private void awaitStatus(String gid, String status) throws Exception {
    // an error ends the wait at once: the assertion below then tells which
    String now = await(gid + " " + status).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
        .until(() -> call("aria2.tellStatus", gid, List.of("status", "errorMessage")).get("status").asText(),
            s -> s.equals(status) || s.equals("error"));
    JsonNode last = answer("aria2.tellStatus", gid);
    assertEquals(status, now, () -> gid + ": " + last);
  }

  /** How many absolute-form requests for {@code path} went through {@code proxy}. */
  private static long through(ConnectProxy proxy, String path) {
    return proxy.heads().stream().filter(h -> h.startsWith("GET http://") && h.split(" ", 3)[1].endsWith(path)).count();
  }

  private JsonNode call(String method, Object... params) throws Exception {
    return calls.call(method, params);
  }

  /** The whole answer, an error included. */
  private JsonNode answer(String method, Object... params) throws Exception {
    return calls.answer(method, params);
  }
}
