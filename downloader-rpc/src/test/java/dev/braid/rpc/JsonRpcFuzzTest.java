package dev.braid.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.braid.core.OutageRetry;
import dev.braid.core.rules.Rules;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A JSON-RPC request body from any client, through the daemon's {@link Dispatcher}: the request
 * and batch shapes, the secret, {@code system.multicall}, the positional {@link Params} and
 * {@code addUri}'s {@link AddOptions} (the options of a real call, read into a request but not
 * submitted: no engine, so no download to a host the fuzzer names). The answer is always
 * well-formed JSON-RPC with aria2's codes; a method that fails with anything but an
 * {@link RpcException} (which the dispatcher would report as "NullPointerException", code 1) fails
 * the target.
 */
class JsonRpcFuzzTest {
  private static final ObjectMapper MAPPER = Dispatcher.mapper();
  private static final Set<Integer> CODES = Set.of(RpcException.FAILED, RpcException.PARSE_ERROR,
      RpcException.INVALID_REQUEST, RpcException.INVALID_PARAMS);
  private static final Dispatcher DISPATCHER = dispatcher();

  @FuzzTest
  @DictionaryEntries({"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"", "aria2.addUri", "system.multicall", "fuzz.params",
      "system.listMethods", "\"params\":[", "\"token:s3cret\"", "methodName", "{\"dir\":\"", "\"out\":\"",
      "\"header\":[",
      "\"split\":\"", "\"max-connection-per-server\":", "\"max-download-limit\":\"", "\"checksum\":\"sha-256=",
      "\"braid-pieces\":\"sha-1:", "\"braid-length\":\"", "\"all-proxy\":\"", "\"pause\":\"true\"", "2089b05ecca3d829",
      "http://example.test/a", "..", "]", "}", "null", "1e400", "-1"})
  void request(byte[] body) throws IOException {
    Dispatcher.Reply reply = DISPATCHER.handle(new String(body, StandardCharsets.UTF_8), Caller.local());
    assertTrue(Set.of(200, 400, 500).contains(reply.status()), "status " + reply.status());
    JsonNode answer = MAPPER.readTree(reply.json());
    if (answer.isArray()) {
      assertEquals(200, reply.status());
      answer.forEach(JsonRpcFuzzTest::assertAnswer);
    } else {
      assertAnswer(answer);
      int code = answer.path("error").path("code").asInt();
      int status = !answer.has("error") ? 200 : code == RpcException.PARSE_ERROR ? 500 : 400;
      assertEquals(status, reply.status(), reply.json());
    }
  }

  /** One answer: the JSON-RPC envelope, with a result or an error of aria2's codes and a message. */
  private static void assertAnswer(JsonNode a) {
    assertEquals("2.0", a.path("jsonrpc").asText(), a.toString());
    assertTrue(a.has("id"), a.toString());
    assertTrue(a.has("result") != a.has("error"), a.toString());
    if (a.has("error")) {
      JsonNode e = a.get("error");
      assertTrue(CODES.contains(e.path("code").asInt()), a.toString());
      assertFalse(e.path("message").asText().isBlank(), a.toString());
    }
  }

  private static Dispatcher dispatcher() {
    Path folder;
    try {
      folder = Files.createTempDirectory("braid-fuzz-rpc").toRealPath();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    AddOptions adding = new AddOptions(new FolderPolicy(folder, List.of()), Rules.NONE, () -> OutageRetry.DEFAULT);
    Dispatcher d = new Dispatcher(MAPPER, new Gate(new Access(new Secret("s3cret"), null), new GuessLimiter(System::nanoTime)));
    // addUri's parameters as AddMethods reads them, without submitting the request
    Method add = strict(p -> {
      AddOptions.Added added = adding.request(p.strings(0), p.object(1));
      assertTrue(added.request().uri().isAbsolute(), added.request().uri().toString());
      return TextNode.valueOf(p.has(2) ? Integer.toString(p.integer(2)) : "added");
    });
    d.add("aria2.addUri", add, calls -> {
      List<Object> out = new ArrayList<>();
      for (Params p : calls) {
        try {
          out.add(add.call(p));
        } catch (RpcException e) {
          out.add(e);
        }
      }
      return out;
    });
    // every Params reader on every parameter, as the other methods use them
    d.add("fuzz.params", strict(p -> {
      for (int i = 0; i < p.size() + 1; i++) {
        readAll(p, i);
      }
      return TextNode.valueOf("read");
    }));
    return d;
  }

  private static void readAll(Params p, int i) {
    List<Reader> readers = List.of(p::string, p::gid, p::integer, p::object, p::array, p::strings);
    for (Reader r : readers) {
      try {
        r.read(i);
      } catch (RpcException e) {
        assertFalse(e.getMessage() == null || e.getMessage().isBlank());
      }
    }
  }

  /** One of the {@link Params} readers. */
  @FunctionalInterface
  private interface Reader {
    Object read(int i) throws RpcException;
  }

  /** A method whose failures other than an {@link RpcException} fail the target, not the call. */
  private static Method strict(Method m) {
    return p -> {
      try {
        return m.call(p);
      } catch (RuntimeException e) {
        throw new AssertionError("a method failed with " + e, e);
      }
    };
  }
}
