package dev.braid.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.braid.testserver.Content;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Consecutive {@code aria2.addUri} calls of a {@code system.multicall} are added together, with
 * the answers and the queue that adding them one by one gives.
 */
class MulticallAddsTest extends RpcHarness {
  private static void add(ArrayNode multicall, String token, Object... params) {
    ArrayNode p = multicall.addObject().put("methodName", "aria2.addUri").putArray("params").add(token);
    for (Object o : params) {
      p.add(RpcCalls.JSON.valueToTree(o));
    }
  }

  @Test
  void addsInOneMulticallAnswerInOrderEachWithItsOwnError() throws Exception {
    for (String name : List.of("a", "b", "c", "d", "e")) {
      server.serve("/" + name, Content.random(1024, name.charAt(0)));
    }
    ObjectNode r = RpcCalls.JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1).put("method", "system.multicall");
    ArrayNode m = r.putArray("params").addArray();
    Map<String, String> paused = Map.of("pause", "true");
    add(m, "token:k", List.of(server.url("/a")), paused);
    add(m, "token:k", List.of(), paused);
    add(m, "token:wrong", List.of(server.url("/x")), paused);
    add(m, "token:k", List.of(server.url("/b")), paused);
    add(m, "token:k", List.of(server.url("/a")), paused);
    add(m, "token:k", List.of(server.url("/c")), paused, 0);
    m.addObject().put("methodName", "aria2.getGlobalStat").putArray("params").add("token:k");
    add(m, "token:k", List.of(server.url("/d")), paused);
    add(m, "token:k", List.of(server.url("/e")), Map.of("pause", "true", "out", "../e"));
    JsonNode answers = calls.post(r).get("result");

    assertEquals(9, answers.size(), answers.toString());
    String a = answers.get(0).get(0).asText();
    assertEquals("No URI to download.", answers.get(1).get("message").asText());
    assertEquals("Unauthorized", answers.get(2).get("message").asText());
    String b = answers.get(3).get(0).asText();
    assertEquals(a, answers.get(4).get(0).asText(), "the same URL and folder twice: one download");
    String c = answers.get(5).get(0).asText();
    // the call between the adds saw the ones before it added
    assertEquals("3", answers.get(6).get(0).get("numWaiting").asText());
    String d = answers.get(7).get(0).asText();
    assertTrue(answers.get(8).has("code"), "an out= outside its folder is refused: " + answers.get(8));
    List<String> waiting = new ArrayList<>();
    calls.call("aria2.tellWaiting", 0, 10, List.of("gid")).forEach(n -> waiting.add(n.get("gid").asText()));
    // c asked for the first place when a and b waited; d came after it
    assertEquals(List.of(c, a, b, d), waiting);
    assertEquals(List.of(), server.requests().stream().map(q -> q.path()).toList(), "paused downloads fetched");
  }
}
