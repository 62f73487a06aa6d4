package dev.braid.rpc;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.client.remote.RpcNames;
import dev.braid.testserver.Content;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * API keys on a real server: a read-only key reads and hears but changes nothing (JSON-RPC error
 * {@link RpcNames#FORBIDDEN}), a full key does what the secret does, a revoked key is refused at
 * its next call and its WebSocket hears no more; the file keeps no key, only its hash and last use.
 */
class ApiKeysTest extends RpcHarness {
  private KeyFile keys() {
    return new KeyFile(work.resolve("state.db.rpc-keys"), Clock.systemUTC());
  }

  @Override
  RpcSettings.Builder configure(RpcSettings.Builder settings) {
    return settings.keys(work.resolve("state.db.rpc-keys"));
  }

  @Test
  void aReadOnlyKeyReadsButChangesNothing() throws Exception {
    String key = keys().add("dashboard", Scope.READ_ONLY).text();
    RpcCalls dashboard = new RpcCalls(rpc::port, key);
    assertTrue(dashboard.call("aria2.tellActive").isArray());
    assertEquals("0", dashboard.call("aria2.getGlobalStat").get("numWaiting").asText());
    assertTrue(dashboard.call(RpcNames.COUNTS).isObject());
    assertEquals(Map.of("scope", "read-only", "key", "dashboard"),
        RpcCalls.JSON.convertValue(dashboard.call(RpcNames.WHOAMI), Map.class));

    for (String write : List.of("aria2.addUri", "aria2.pauseAll", "aria2.changeGlobalOption", "aria2.shutdown",
        RpcNames.ADD, RpcNames.CHANGE_GLOBAL_OPTIONS)) {
      JsonNode error = dashboard.answer(write, List.of("http://127.0.0.1:9/x")).get("error");
      assertEquals(RpcNames.FORBIDDEN, error.get("code").asInt(), write + ": " + error);
      assertEquals(RpcNames.FORBIDDEN_TEXT + write, error.get("message").asText());
    }
    // inside a multicall each call is weighed on its own: the read answers, the add is refused
    JsonNode multicall = dashboard.post(RpcCalls.JSON.valueToTree(Map.of("jsonrpc", "2.0", "id", 1,
        "method", "system.multicall", "params", List.of(List.of(
            Map.of("methodName", "aria2.getVersion", "params", List.of("token:" + key)),
            Map.of("methodName", "aria2.addUri", "params", List.of("token:" + key, List.of("http://127.0.0.1:9/y"))))))))
        .get("result");
    assertTrue(multicall.get(0).get(0).has("version"), multicall::toString);
    assertEquals(RpcNames.FORBIDDEN, multicall.get(1).get("code").asInt(), multicall::toString);
    assertEquals(0, braid.downloads().size(), "nothing was added");

    String file = Files.readString(work.resolve("state.db.rpc-keys"));
    assertFalse(file.contains(key), "the file keeps no key: " + file);
    assertTrue(keys().list().get(0).lastUsed().isPresent(), "its use is recorded");
  }

  @Test
  void aFullKeyDoesWhatTheSecretDoesUntilItIsRevoked() throws Exception {
    server.serve("/f.bin", Content.random(64 * 1024, 3));
    String key = keys().add("tool", Scope.FULL).text();
    RpcCalls tool = new RpcCalls(rpc::port, key);
    assertEquals(Map.of("scope", "full", "key", "tool"), RpcCalls.JSON.convertValue(tool.call(RpcNames.WHOAMI), Map.class));
    assertEquals(Map.of("scope", "full"), RpcCalls.JSON.convertValue(calls.call(RpcNames.WHOAMI), Map.class));
    String gid = tool.call("aria2.addUri", List.of(server.url("/f.bin").toString()), Map.of("pause", "true")).asText();
    assertEquals("paused", tool.call("aria2.tellStatus", gid).get("status").asText());

    assertTrue(keys().revoke("tool"));
    JsonNode refused = tool.answer("aria2.tellStatus", gid).get("error");
    assertEquals("Unauthorized", refused.get("message").asText(), "refused at its next call, the server not restarted");
    assertEquals("paused", calls.call("aria2.tellStatus", gid).get("status").asText(), "the secret still works");
  }

  @Test
  void aRevokedKeysWebSocketHearsNoMore() throws Exception {
    server.serve("/a.bin", Content.random(32 * 1024, 1));
    server.serve("/b.bin", Content.random(32 * 1024, 2));
    String key = keys().add("watch", Scope.READ_ONLY).text();
    RpcCalls watch = new RpcCalls(rpc::port, key);
    try (SocketClient ws = SocketClient.open(rpc.port(), null)) {
      assertTrue(ws.call(watch.request("aria2.tellActive").toString()).get("result").isArray());
      String a = calls.call("aria2.addUri", List.of(server.url("/a.bin").toString())).asText();
      JsonNode heard = ws.next();
      assertEquals("aria2.onDownloadStart", heard.get("method").asText(), heard::toString);
      assertEquals(a, heard.get("params").get(0).get("gid").asText());
      assertEquals("aria2.onDownloadComplete", ws.next().get("method").asText(), "a read-only key hears the queue");

      assertTrue(keys().revoke("watch"));
      String b = calls.call("aria2.addUri", List.of(server.url("/b.bin").toString())).asText();
      await("b complete").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
          .until(() -> calls.call("aria2.tellStatus", b).get("status").asText().equals("complete"));
      // an answer on the socket comes after whatever was sent on it before: no notification of b came first
      JsonNode next = ws.call(watch.request("aria2.tellActive").toString());
      assertEquals("Unauthorized", next.path("error").path("message").asText(), "no notification after the revocation: " + next);
    }
  }
}
