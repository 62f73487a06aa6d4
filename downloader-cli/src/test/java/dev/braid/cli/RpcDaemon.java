package dev.braid.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real {@code braid daemon} child process and a plain JSON-RPC client of it (the JDK's HTTP
 * client and Jackson), for tests that need to see exact answers and status codes.
 */
final class RpcDaemon implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern SERVING = Pattern.compile("serving aria2 JSON-RPC on https?://127\\.0\\.0\\.1:(\\d+)/jsonrpc");

  final CliProcess process;
  final int port;
  final String secret;
  /** This daemon's own client: no connection a client pooled for an earlier daemon (on a port reused since) is ever tried here. */
  private HttpClient http = newClient();
  private int ids;

  private RpcDaemon(CliProcess process, int port, String secret) {
    this.process = process;
    this.port = port;
    this.secret = secret;
  }

  /** Starts {@code braid daemon --state-db DB -d DIR --rpc-listen-port 0 [--rpc-secret SECRET] more...} and waits for its port. */
  static RpcDaemon start(Path work, Path db, Path dir, String secret, String... more) throws Exception {
    return start(work, db.toString(), dir, secret, more);
  }

  /** As {@link #start(Path, Path, Path, String, String...)} on any state location (a server database's URL). */
  static RpcDaemon start(Path work, String stateDb, Path dir, String secret, String... more) throws Exception {
    return start(work, List.of(), stateDb, dir, secret, more);
  }

  /** As {@link #start(Path, String, Path, String, String...)} in a JVM that also gets {@code jvmOptions} (a small heap). */
  static RpcDaemon start(Path work, List<String> jvmOptions, String stateDb, Path dir, String secret, String... more)
      throws Exception {
    List<String> args = new ArrayList<>(List.of("daemon", "--state-db", stateDb, "-d", dir.toString(),
        "--rpc-listen-port", "0"));
    if (secret != null) {
      args.add("--rpc-secret");
      args.add(secret);
    }
    args.addAll(List.of(more));
    CliProcess p = CliProcess.start(work, jvmOptions, args.toArray(String[]::new));
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      Matcher m = SERVING.matcher(p.stderrSoFar());
      if (m.find()) {
        return new RpcDaemon(p, Integer.parseInt(m.group(1)), secret);
      }
      if (!p.isAlive()) {
        fail("braid daemon ended before it listened: " + p.await(Duration.ofSeconds(5)).describe());
      }
      Thread.sleep(20);
    }
    p.close();
    throw new AssertionError("braid daemon did not listen within 30 s");
  }

  URI uri() {
    return URI.create("http://127.0.0.1:" + port + "/jsonrpc");
  }

  /** A JSON-RPC request with the secret first. */
  ObjectNode request(String method, Object... params) {
    ObjectNode r = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", "t" + (++ids)).put("method", method);
    ArrayNode p = r.putArray("params");
    if (secret != null) {
      p.add("token:" + secret);
    }
    for (Object o : params) {
      p.add(JSON.valueToTree(o));
    }
    return r;
  }

  /** The result of a call, failing the test on an error answer. */
  JsonNode call(String method, Object... params) throws IOException, InterruptedException {
    JsonNode answer = post(request(method, params).toString()).body;
    if (answer.has("error")) {
      fail(method + " answered an error: " + answer);
    }
    return answer.get("result");
  }

  /** The result of a call sent with an {@code Origin} header (a browser extension's), failing the test on an error answer. */
  JsonNode callFrom(String origin, String method, Object... params) throws IOException, InterruptedException {
    HttpResponse<String> r = send(HttpRequest.newBuilder(uri()).timeout(Duration.ofSeconds(20)).header("Origin", origin)
        .POST(HttpRequest.BodyPublishers.ofString(request(method, params).toString())).build());
    JsonNode answer = JSON.readTree(r.body());
    if (r.statusCode() != 200 || answer.has("error")) {
      fail(method + " from " + origin + " answered " + r.statusCode() + ": " + answer);
    }
    return answer.get("result");
  }

  /** The whole answer of a call that must fail, with its error. */
  JsonNode error(String method, Object... params) throws IOException, InterruptedException {
    JsonNode answer = post(request(method, params).toString()).body;
    assertTrue(answer.has("error"), () -> method + " should have failed: " + answer);
    return answer.get("error");
  }

  /** An HTTP answer: status and parsed body. */
  record Answer(int status, JsonNode body, HttpResponse<String> raw) {}

  Answer post(String body) throws IOException, InterruptedException {
    return post(body, false);
  }

  /**
   * Posts {@code body}, with {@code Expect: 100-continue} when {@code expectContinue} (as curl sends a
   * large body): a body the daemon refuses unread is then never sent, and its answer cannot be lost
   * to the reset of a connection closed while the body still came.
   */
  Answer post(String body, boolean expectContinue) throws IOException, InterruptedException {
    HttpResponse<String> r = send(HttpRequest.newBuilder(uri()).timeout(Duration.ofSeconds(20)).expectContinue(expectContinue)
        .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    return new Answer(r.statusCode(), r.body().isEmpty() ? null : JSON.readTree(r.body()), r);
  }

  private static HttpClient newClient() {
    return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  }

  /**
   * Sends {@code request}. A call unanswered in time is told on stderr with the daemon's threads
   * and sent once more on a new client's connection (a few calls in clean-clone runs went
   * unanswered while the daemon's threads were idle, which a retry on another connection tells
   * apart from a daemon that hangs); unanswered again, it fails the test with the threads.
   */
  private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (HttpTimeoutException e) {
      System.err.println("[RpcDaemon] a call went unanswered for " + request.timeout().orElseThrow()
          + "; sending it again on a new connection. The daemon's threads:\n" + process.threadDump());
      http = newClient();
      try {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
      } catch (HttpTimeoutException again) {
        throw new AssertionError("the daemon did not answer within " + request.timeout().orElseThrow() + ", twice"
            + "\nits stderr: " + process.stderrSoFar() + "\nits threads:\n" + process.threadDump(), again);
      }
    }
  }

  /** Polls tellStatus until {@code done} holds (20 ms apart, bounded). */
  JsonNode awaitStatus(String gid, Predicate<JsonNode> done, Duration timeout) throws Exception {
    return await("status of " + gid + " reached").atMost(timeout).pollInterval(Duration.ofMillis(20))
        .until(() -> call("aria2.tellStatus", gid), done);
  }

  @Override
  public void close() throws IOException {
    process.close();
  }
}
