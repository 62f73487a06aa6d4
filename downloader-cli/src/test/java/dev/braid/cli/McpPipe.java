package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code braid mcp} child on pipes and a bare MCP client of it, line by line: every line
 * the child prints on standard output is kept, so that a test checks that each one is a protocol
 * message. (The official client's test is {@link McpClientTest}; this one sees the raw stream.)
 * A thread of this object reads the child's output until it ends; {@link #close()} kills a child
 * still running.
 */
final class McpPipe implements AutoCloseable {
  private static final Duration ANSWER = Duration.ofSeconds(60);

  private final Process process;
  private final OutputStream in;
  private final Path stderr;
  private final List<String> lines = new CopyOnWriteArrayList<>();
  private final Map<Integer, JsonNode> answers = new ConcurrentHashMap<>();
  private final Thread reader;
  private int ids;

  private McpPipe(Process process, Path stderr) {
    this.process = process;
    this.in = process.getOutputStream();
    this.stderr = stderr;
    this.reader = new Thread(this::read, "mcp-pipe-reader");
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts {@code braid mcp args...} in {@code work} and completes the protocol's handshake. */
  static McpPipe start(Path work, String... args) throws Exception {
    Path err = Files.createTempFile(work, "mcp-", ".stderr");
    List<String> command = new ArrayList<>(List.of("mcp"));
    command.addAll(List.of(args));
    Process p = ChildJvm.get().process(work, List.of(), command).redirectError(err.toFile()).start();
    McpPipe pipe = new McpPipe(p, err);
    JsonNode init = pipe.request("initialize", RpcDaemon.JSON.createObjectNode().put("protocolVersion", "2025-06-18")
        .<ObjectNode>set("capabilities", RpcDaemon.JSON.createObjectNode())
        .set("clientInfo", RpcDaemon.JSON.createObjectNode().put("name", "mcp-pipe").put("version", "1")));
    assertEquals("braid", init.path("result").path("serverInfo").path("name").asText(), init::toString);
    pipe.send(RpcDaemon.JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "notifications/initialized"));
    return pipe;
  }

  /** The result of {@code tools/call} of {@code tool} with {@code arguments}. */
  JsonNode call(String tool, Map<String, Object> arguments) throws Exception {
    JsonNode answer = request("tools/call", RpcDaemon.JSON.createObjectNode().put("name", tool)
        .set("arguments", RpcDaemon.JSON.valueToTree(arguments)));
    assertNotNull(answer.get("result"), answer::toString);
    return answer.get("result");
  }

  /** The structured content of a call that must succeed. */
  JsonNode ok(String tool, Map<String, Object> arguments) throws Exception {
    JsonNode result = call(tool, arguments);
    if (result.path("isError").asBoolean()) {
      fail(tool + " failed: " + result);
    }
    return result.path("structuredContent");
  }

  private JsonNode request(String method, JsonNode params) throws Exception {
    int id = ++ids;
    send(RpcDaemon.JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method).set("params", params));
    long deadline = System.nanoTime() + ANSWER.toNanos();
    while (!answers.containsKey(id)) {
      if (!process.isAlive()) {
        // what it printed before it ended is read to the end first
        reader.join(Duration.ofSeconds(5).toMillis());
        if (!answers.containsKey(id)) {
          fail("braid mcp ended without answering " + method + "; stderr: " + stderr());
        }
      }
      if (System.nanoTime() > deadline) {
        fail("no answer to " + method + " within " + ANSWER + "; stderr: " + stderr());
      }
      Thread.sleep(5);
    }
    return answers.get(id);
  }

  private void send(JsonNode message) throws IOException {
    in.write((message + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  /** The reader's thread: every line kept, each answer filed under its id. */
  private void read() {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null;) {
        lines.add(line);
        try {
          JsonNode m = RpcDaemon.JSON.readTree(line);
          if (m.has("id") && m.path("id").isInt()) {
            answers.put(m.path("id").asInt(), m);
          }
        } catch (IOException notJson) {
          // kept in lines: the test sees it
        }
      }
    } catch (IOException ended) {
      // the child is gone
    }
  }

  /**
   * Sends {@code tools/call} of {@code tool} and closes the child's standard input at once, as a
   * script piping its last requests would; the answer the child printed before it exited 0.
   */
  JsonNode lastCall(String tool, Map<String, Object> arguments, Duration timeout) throws Exception {
    int id = ++ids;
    send(RpcDaemon.JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", "tools/call")
        .set("params", RpcDaemon.JSON.createObjectNode().put("name", tool).set("arguments", RpcDaemon.JSON.valueToTree(arguments))));
    assertEquals(ExitCode.OK, closeInputAndAwaitExit(timeout));
    reader.join(Duration.ofSeconds(5).toMillis());
    JsonNode answer = answers.get(id);
    assertNotNull(answer, () -> "braid mcp ended without answering the request sent before its input closed: " + lines);
    return answer.path("result");
  }

  /** Closes the child's standard input, as a client that went away, and waits for its exit code. */
  int closeInputAndAwaitExit(Duration timeout) throws Exception {
    in.close();
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      fail("braid mcp did not end within " + timeout + " of its input's end; stderr: " + stderr());
    }
    return process.exitValue();
  }

  /** Every line the child printed on standard output so far. */
  List<String> stdoutLines() {
    return List.copyOf(lines);
  }

  String stderr() throws IOException {
    return Files.readString(stderr, StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
