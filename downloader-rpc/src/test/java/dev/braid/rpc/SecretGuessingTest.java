package dev.braid.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.braid.core.Braid;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Guessing the secret costs per guess: a real server, real clients on 127.0.0.1 and 127.0.0.2, and
 * a clock moved by hand, so that "a second" is exact and no test sleeps.
 */
class SecretGuessingTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String UNAUTHORIZED = "Unauthorized";

  @TempDir Path work;
  private final AtomicLong clock = new AtomicLong(1_000_000_000_000L);
  private Braid braid;
  private RpcServer rpc;
  private RpcCalls calls;
  private int ids;

  @BeforeEach
  void start() throws Exception {
    braid = Braid.builder().stateDatabase(work.resolve("state.db")).downloadDirectory(work).build();
    rpc = RpcServer.start(braid, RpcSettings.builder(work, "k").port(0).unauthorizedDelay(Duration.ZERO)
        .nanoClock(clock::get).keys(work.resolve("keys")).build(), () -> { });
    calls = new RpcCalls(rpc::port, "k");
  }

  @AfterEach
  void stop() {
    rpc.close();
    braid.close();
  }

  private ObjectNode call(String method, String token) {
    ObjectNode r = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", ++ids).put("method", method);
    r.putArray("params").add(token);
    return r;
  }

  /** The messages of a batch's (or a multicall's) error answers, by kind. */
  private static long count(JsonNode answers, String message) {
    long n = 0;
    for (JsonNode a : answers) {
      JsonNode error = a.has("error") ? a.get("error") : a;
      n += message.equals(error.path("message").asText()) ? 1 : 0;
    }
    return n;
  }

  private ArrayNode wrongBatch(int size) {
    ArrayNode batch = JSON.createArrayNode();
    for (int i = 0; i < size; i++) {
      batch.add(call("aria2.getVersion", "token:guess" + i));
    }
    return batch;
  }

  /** A multicall of wrong secrets, half of them addUri (whose consecutive calls run together) and half getVersion. */
  private ObjectNode wrongMulticall(int size) {
    ObjectNode r = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", ++ids).put("method", "system.multicall");
    ArrayNode list = r.putArray("params").addArray();
    for (int i = 0; i < size; i++) {
      ArrayNode p = list.addObject().put("methodName", i < size / 2 ? "aria2.addUri" : "aria2.getVersion").putArray("params")
          .add("token:guess" + i);
      if (i < size / 2) {
        p.addArray().add("http://127.0.0.1:9/x" + i);
      }
    }
    return r;
  }

  @Test
  void aBatchAndAMulticallOfWrongSecretsHaveTenCheckedASecond() throws Exception {
    JsonNode batch = calls.post(wrongBatch(1000));
    assertEquals(1000, batch.size());
    assertEquals(GuessLimiter.WRONG_PER_SECOND, count(batch, UNAUTHORIZED), "ten guesses checked in this second");
    assertEquals(990, count(batch, Gate.TOO_MANY_GUESSES), "the rest refused unchecked");
    assertEquals(1, batch.get(999).get("error").get("code").asInt(), "code 1, as aria2's Unauthorized");

    JsonNode multicall = calls.post(wrongMulticall(1000)).get("result");
    assertEquals(1000, count(multicall, Gate.TOO_MANY_GUESSES), "the same second: none checked");

    clock.addAndGet(Duration.ofSeconds(1).toNanos());
    multicall = calls.post(wrongMulticall(1000)).get("result");
    assertEquals(GuessLimiter.WRONG_PER_SECOND, count(multicall, UNAUTHORIZED), "a second later: ten more");
    assertEquals(990, count(multicall, Gate.TOO_MANY_GUESSES));
    assertEquals(0, braid.downloads().size(), "no addUri of a wrong secret ran");
  }

  @Test
  void theRightSecretFromAnotherAddressIsAnsweredMeanwhile() throws Exception {
    calls.post(wrongBatch(100));
    // this address is past its guesses: its right secret is refused too, unchecked (an answer would tell a guesser it won)
    JsonNode mine = calls.answer("aria2.getVersion");
    assertEquals(Gate.TOO_MANY_GUESSES, mine.get("error").get("message").asText(), mine::toString);

    JsonNode other = postFrom("127.0.0.2", call("aria2.getVersion", "token:k"));
    assertTrue(other.get("result").has("version"), other::toString);
    JsonNode otherWrong = postFrom("127.0.0.2", call("aria2.getVersion", "token:nope"));
    assertEquals(UNAUTHORIZED, otherWrong.get("error").get("message").asText(), "another address has its own allowance");

    clock.addAndGet(Duration.ofSeconds(1).toNanos());
    assertTrue(calls.call("aria2.getVersion").has("version"), "a second later the address is served again");
  }

  @Test
  void anApiKeyIsPricedAsTheSecret() throws Exception {
    String key = new KeyFile(work.resolve("keys"), Clock.systemUTC()).add("dash", Scope.READ_ONLY).text();
    RpcCalls dashboard = new RpcCalls(rpc::port, key);
    assertTrue(dashboard.call("aria2.getVersion").has("version"));
    calls.post(wrongBatch(100));
    // past its guesses, the address's right key is refused unchecked, as its right secret is
    JsonNode mine = dashboard.answer("aria2.getVersion");
    assertEquals(Gate.TOO_MANY_GUESSES, mine.get("error").get("message").asText(), mine::toString);
    clock.addAndGet(Duration.ofSeconds(1).toNanos());
    assertTrue(dashboard.call("aria2.getVersion").has("version"), "a second later the key is served again");
  }

  @Test
  void wrongSecretsOnOneWebSocketCountAsMany() throws Exception {
    try (SocketClient ws = SocketClient.open(rpc.port(), null)) {
      long checked = 0;
      long refused = 0;
      for (int i = 0; i < 40; i++) {
        JsonNode a = ws.call(call("aria2.tellActive", "token:guess" + i).toString());
        String message = a.get("error").get("message").asText();
        checked += message.equals(UNAUTHORIZED) ? 1 : 0;
        refused += message.equals(Gate.TOO_MANY_GUESSES) ? 1 : 0;
      }
      assertEquals(GuessLimiter.WRONG_PER_SECOND, checked);
      assertEquals(30, refused);
    }
  }

  @Test
  void aWebSocketThatShowedTheSecretKeepsWorkingWhileItsAddressIsGuessed() throws Exception {
    try (SocketClient ws = SocketClient.open(rpc.port(), null)) {
      assertTrue(ws.call(call("aria2.getVersion", "token:k").toString()).get("result").has("version"));
      calls.post(wrongBatch(100));
      assertEquals(Gate.TOO_MANY_GUESSES, calls.answer("aria2.getVersion").get("error").get("message").asText());
      JsonNode a = ws.call(call("aria2.getVersion", "token:k").toString());
      assertTrue(a.get("result").has("version"), "a proven connection is checked at once: " + a);
      JsonNode wrong = ws.call(call("aria2.getVersion", "token:nope").toString());
      assertEquals(Gate.TOO_MANY_GUESSES, wrong.get("error").get("message").asText(), "its wrong secrets count as any");
    }
  }

  /** One HTTP/1.1 POST from a socket bound to {@code source} (the JDK's client cannot pick its address). */
  private JsonNode postFrom(String source, JsonNode body) throws Exception {
    byte[] json = body.toString().getBytes(StandardCharsets.UTF_8);
    try (Socket s = new Socket()) {
      s.bind(new InetSocketAddress(InetAddress.getByName(source), 0));
      s.connect(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), rpc.port()), 5000);
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write(("POST /jsonrpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
          + json.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(json);
      out.flush();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      InputStream in = s.getInputStream();
      in.transferTo(all);
      String response = all.toString(StandardCharsets.UTF_8);
      int head = response.indexOf("\r\n\r\n");
      assertFalse(head < 0, response);
      return JSON.readTree(response.substring(head + 4));
    }
  }
}
