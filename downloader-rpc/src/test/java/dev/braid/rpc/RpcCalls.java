package dev.braid.rpc;

import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.function.IntSupplier;

/**
 * A plain JSON-RPC client of an in-process {@link RpcServer} for the tests: aria2's requests with
 * the secret first, posted over HTTP, answers read whole. Test thread only.
 */
final class RpcCalls {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final IntSupplier port;
  private final String token;
  private int ids;

  /** @param port the server's port, asked at each call (a test may restart the server) */
  RpcCalls(IntSupplier port, String secret) {
    this.port = port;
    this.token = "token:" + secret;
  }

  ObjectNode request(String method, Object... params) {
    ObjectNode r = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", ++ids).put("method", method);
    ArrayNode p = r.putArray("params").add(token);
    for (Object o : params) {
      p.add(JSON.valueToTree(o));
    }
    return r;
  }

  JsonNode post(JsonNode body) throws Exception {
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port.getAsInt() + "/jsonrpc"))
        .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(r.body());
  }

  /** The whole answer to one call, an error included. */
  JsonNode answer(String method, Object... params) throws Exception {
    return post(request(method, params));
  }

  /** The result of one call, which must not fail. */
  JsonNode call(String method, Object... params) throws Exception {
    JsonNode answer = answer(method, params);
    assertFalse(answer.has("error"), () -> method + ": " + answer);
    return answer.get("result");
  }
}
