package dev.braid.gui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * aria2 JSON-RPC calls to a {@code braid daemon} on loopback, with its secret, over the JDK's
 * HTTP client. Blocking; safe from any thread. An error answer is an {@link IOException} with
 * the daemon's message.
 */
final class DaemonClient {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final ObjectMapper json = new ObjectMapper();
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(2)).build();
  private final URI uri;
  private final String token;
  private final AtomicLong ids = new AtomicLong();

  DaemonClient(int port, String secret) {
    this.uri = URI.create("http://127.0.0.1:" + port + "/jsonrpc");
    this.token = "token:" + secret;
  }

  URI uri() {
    return uri;
  }

  /** The result of one call. */
  JsonNode call(String method, Object... params) throws IOException, InterruptedException {
    return result(post(request(method, params)));
  }

  /** The results of several calls sent as one JSON-RPC batch, in the order given. */
  List<JsonNode> batch(List<ObjectNode> requests) throws IOException, InterruptedException {
    ArrayNode body = json.createArrayNode().addAll(requests);
    JsonNode answers = post(body);
    if (!answers.isArray() || answers.size() != requests.size()) {
      throw new IOException("the daemon answered a batch of " + requests.size() + " with " + answers);
    }
    List<JsonNode> out = new ArrayList<>();
    for (ObjectNode r : requests) {
      JsonNode match = null;
      for (JsonNode a : answers) {
        if (a.path("id").asText().equals(r.path("id").asText())) {
          match = a;
        }
      }
      out.add(result(match == null ? json.createObjectNode() : match));
    }
    return out;
  }

  /** A request with the secret as its first parameter. */
  ObjectNode request(String method, Object... params) {
    ObjectNode r = json.createObjectNode().put("jsonrpc", "2.0").put("id", "gui" + ids.incrementAndGet()).put("method", method);
    ArrayNode p = r.putArray("params").add(token);
    for (Object o : params) {
      p.add(json.valueToTree(o));
    }
    return r;
  }

  private JsonNode post(JsonNode body) throws IOException, InterruptedException {
    HttpRequest req = HttpRequest.newBuilder(uri).timeout(TIMEOUT).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body))).build();
    HttpResponse<String> res = http.send(req, HttpResponse.BodyHandlers.ofString());
    if (res.body().isEmpty()) {
      throw new IOException("the daemon answered HTTP " + res.statusCode() + " with no body");
    }
    return json.readTree(res.body());
  }

  private static JsonNode result(JsonNode answer) throws IOException {
    JsonNode error = answer.get("error");
    if (error != null) {
      throw new IOException(error.path("message").asText("error " + error.path("code").asText()));
    }
    if (!answer.has("result")) {
      throw new IOException("the daemon's answer has no result: " + answer);
    }
    return answer.get("result");
  }
}
