package dev.braid.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hooks from the command line: real braid processes, real scripts, a real webhook receiver on loopback. */
class CliHooksTest {
  @TempDir Path work;
  private TestServer server;
  private Content content;

  @BeforeEach
  void start() throws IOException {
    server = TestServer.start();
    content = Content.random(512 * 1024, 21);
    server.serve("/f.bin", content);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Path script(String name, String body) throws IOException {
    Path s = work.resolve(name);
    Files.writeString(s, "#!/bin/sh\n" + body + "\n");
    s.toFile().setExecutable(true);
    return s;
  }

  @Test
  void getRunsTheCompleteHookWithAria2sArgumentsBeforeItExits() throws Exception {
    Path args = work.resolve("args.txt");
    Path hook = script("done.sh", "printf '%s|%s|%s\\n' \"$1\" \"$2\" \"$3\" > " + args + "; echo to-stdout");
    CliProcess.Result r = CliProcess.run(work, "get", server.url("/f.bin"), "-o", "f.bin", "--json",
        "--state-db", work.resolve("state.db").toString(), "--on-download-complete", hook.toString()).assertExit(0);
    Path file = work.resolve("f.bin").toAbsolutePath();
    String[] got = Files.readString(args).strip().split("\\|");
    assertEquals(16, got[0].length(), got[0]);
    assertEquals("1", got[1]);
    assertEquals(file.toString(), got[2]);
    // the hook's stdout went to stderr: the JSON stream is only events
    assertFalse(r.stdout().contains("to-stdout"), r.stdout());
    assertTrue(r.stderr().contains("to-stdout"), r.stderr());
    assertEquals(content.sha256Hex(), CliTestSupport.sha256Hex(file));
  }

  @Test
  void aFailingOrHungHookIsReportedAndTheExitCodeStaysZero() throws Exception {
    Path hang = script("hang.sh", "sleep 300");
    CliProcess.Result r = CliProcess.run(work, "get", server.url("/f.bin"), "-o", "f.bin", "-q",
        "--state-db", work.resolve("state.db").toString(), "--on-download-complete", hang.toString(), "--hook-timeout", "0.5")
        .assertExit(0).assertNoStackTrace();
    assertTrue(r.stderr().contains("braid: hook '" + hang + "'") && r.stderr().contains("killed"), r.stderr());

    server.respond("/gone.bin", 404);
    Path bad = script("bad.sh", "exit 4");
    CliProcess.Result json = CliProcess.run(work, "get", server.url("/gone.bin"), "-o", "gone.bin", "--json",
        "--state-db", work.resolve("state.db").toString(), "--on-download-error", bad.toString());
    assertEquals(ExitCode.HTTP_STATUS, json.exit(), json.stderr());
    assertTrue(json.stdout().lines().anyMatch(l -> l.contains("\"event\":\"hook_failed\"") && l.contains("exited with 4")
        && l.contains("\"for\":\"error\"")), json.stdout());
  }

  @Test
  void theDaemonPostsWebhooksWithoutItsSecretAndRunsHooksWithoutIt() throws Exception {
    BlockingQueue<String> bodies = new LinkedBlockingQueue<>();
    HttpServer receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    receiver.createContext("/hook", ex -> {
      bodies.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      ex.sendResponseHeaders(200, -1);
      ex.close();
    });
    receiver.start();
    String secret = "s3cret-token-for-hooks";
    Path env = work.resolve("env.txt");
    Path hook = script("env.sh", "env > " + env + "; echo \"$@\" >> " + env);
    Path dir = Files.createDirectories(work.resolve("dl"));
    try (RpcDaemon daemon = RpcDaemon.start(work, work.resolve("state.db"), dir, secret,
        "--on-download-webhook", "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook",
        "--on-download-complete", hook.toString())) {
      String gid = daemon.call("aria2.addUri", List.of(server.url("/f.bin")), Map.of("out", "w.bin")).asText();
      String body = bodies.poll(30, TimeUnit.SECONDS);
      JsonNode event = RpcDaemon.JSON.readTree(body);
      assertEquals("complete", event.get("event").asText());
      assertEquals(gid, event.get("gid").asText());
      assertEquals(dir.resolve("w.bin").toString(), event.get("path").asText());
      assertEquals(content.size(), event.get("length").asLong());
      assertFalse(body.contains(secret), body);
      await("the hook wrote its line").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
          .until(() -> Files.exists(env) && Files.readString(env).contains(gid));
      String seen = Files.readString(env);
      assertTrue(seen.contains(gid + " 1 " + dir.resolve("w.bin")), seen);
      assertFalse(seen.contains(secret), "the hook saw the RPC secret");
      // a failure carries aria2's code for its cause, as tellStatus does
      String missing = daemon.call("aria2.addUri", List.of(server.url("/missing.bin")), Map.of("out", "m.bin")).asText();
      JsonNode failed = RpcDaemon.JSON.readTree(bodies.poll(30, TimeUnit.SECONDS));
      assertEquals("error", failed.get("event").asText());
      assertEquals(missing, failed.get("gid").asText());
      assertEquals("3", failed.get("errorCode").asText(), failed::toString);
    } finally {
      receiver.stop(0);
    }
  }
}
