package dev.braid.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real aria2 client nobody here wrote (npm's aria2.js 4.1.2) drives a real {@code braid daemon},
 * and the same scenario drives a real {@code aria2c --enable-rpc}, so that a difference in the
 * answers' shapes shows: addUri, the notifications, forcePause/unpause, forceRemove, the three
 * lists with a negative offset, multicall, changeGlobalOption.
 */
class DaemonAria2ClientTest {
  private static final Pattern GID = Pattern.compile("[0-9a-f]{16}");
  private static final long FAST = 2L << 20;
  private static Path scenario;
  private static TestServer server;
  private static Content fast;

  @TempDir Path work;

  @BeforeAll
  static void installClientAndServe() throws Exception {
    // aria2c for the comparison; a no-op where it is installed
    Aria2Js.run(Path.of("."), Duration.ofMinutes(5), "bash", "../testenv/require-packages.sh", "aria2");
    scenario = Aria2Js.install();
    server = TestServer.start();
    fast = Content.random(FAST, 19);
    server.serve("/fast.bin", fast).etag("\"fast\"");
    // slow enough that it is still running when paused and removed, whatever the connection count
    server.serve("/slow.bin", Content.random(256L << 20, 20)).etag("\"slow\"").rateLimitPerConnection(64 << 10);
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  @Test
  void aria2jsDrivesBraidAsItDrivesAria2c() throws Exception {
    Path braidDir = Files.createDirectories(work.resolve("braid"));
    JsonNode braid;
    try (RpcDaemon d = RpcDaemon.start(work, work.resolve("state.db"), braidDir, "s3cret")) {
      braid = scenario(d.port, "s3cret");
      CliProcess.Result stopped = d.process.terminate();
      stopped.assertExit(ExitCode.OK);
    }
    assertScenario(braid);
    assertEquals(fast.sha256Hex(), CliTestSupport.sha256Hex(braidDir.resolve("fast.bin")));

    Path ariaDir = Files.createDirectories(work.resolve("aria2c"));
    int port = freePort();
    Process aria2c = new ProcessBuilder("aria2c", "--enable-rpc", "--rpc-listen-port=" + port, "--rpc-secret=s3cret",
        "--no-conf", "-d", ariaDir.toString(), "--quiet=true")
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    JsonNode aria;
    try {
      awaitListening(port);
      aria = scenario(port, "s3cret");
    } finally {
      aria2c.destroy();
      aria2c.waitFor(10, TimeUnit.SECONDS);
    }
    assertScenario(aria);
    for (String key : List.of("fastStatus", "fastFiltered", "waiting", "stopped", "stoppedLast", "multicall", "globalStat")) {
      assertSameShape(key, aria.get(key), braid.get(key));
    }
    assertEquals(names(aria.get("events"), aria), names(braid.get("events"), braid), "the same notifications, in order");
    // features by aria2's names, only those Braid serves (Metalink: aria2.addMetalink)
    List<String> features = strings(braid.get("version").get("enabledFeatures"));
    assertEquals(List.of("HTTPS", "Message Digest", "Metalink"), features);
    assertTrue(strings(aria.get("version").get("enabledFeatures")).containsAll(features), () -> "aria2c names: " + aria.get("version"));
  }

  /** What both servers must have answered. */
  private static void assertScenario(JsonNode r) {
    String fastGid = r.get("fast").asText();
    String slowGid = r.get("slow").asText();
    assertTrue(GID.matcher(fastGid).matches() && GID.matcher(slowGid).matches(), "gids of 16 hex digits: " + r);
    JsonNode s = r.get("fastStatus");
    assertEquals("complete", s.get("status").asText(), s::toString);
    assertEquals(Long.toString(FAST), s.get("totalLength").asText());
    assertEquals(Long.toString(FAST), s.get("completedLength").asText());
    // the piece map front ends draw (aria2's 1 MiB pieces): both of the 2 MiB file's, complete
    assertEquals("c0", s.path("bitfield").asText(), s::toString);
    assertEquals("2", s.path("numPieces").asText(), s::toString);
    assertEquals("1048576", s.path("pieceLength").asText(), s::toString);
    assertEquals(Set.of("gid", "status", "completedLength"), keys(r.get("fastFiltered")));
    JsonNode file = r.get("fastFiles").get(0);
    assertEquals("1", file.get("index").asText());
    assertTrue(file.get("path").asText().endsWith("fast.bin"), file::toString);
    assertEquals(Set.of("uri", "status"), keys(file.get("uris").get(0)));
    assertEquals(slowGid, r.get("active").get(0).get("gid").asText(), () -> "tellActive: " + r.get("active"));
    assertEquals(slowGid, r.get("paused").asText());
    assertEquals("paused", find(r.get("waiting"), slowGid).get("status").asText());
    String later = r.get("later").asText();
    String first = r.get("first").asText();
    assertEquals(List.of(first, slowGid, later), strings(r.get("waitingOrder")), "addUri's position 0 puts it first");
    assertEquals("[0,1]", r.get("uriAdded").toString());
    assertEquals(List.of(server.url("/fast.bin"), server.url("/slow.bin")), strings(r.get("urisAfterAdd")));
    assertEquals("[1,1]", r.get("uriSwapped").toString());
    assertEquals(List.of(server.url("/slow.bin") + "?fresh", server.url("/slow.bin")), strings(r.get("urisAfterSwap")),
        "a new first URI (the download had not started: nothing to prove it against)");
    assertEquals(0, r.get("positioned").asInt());
    assertEquals(List.of(later, first, slowGid), strings(r.get("waitingOrder2")));
    assertEquals(slowGid, r.get("removed").asText());
    assertEquals("removed", find(r.get("stopped"), slowGid).get("status").asText());
    assertEquals(slowGid, r.get("stoppedLast").get(0).get("gid").asText(), "tellStopped(-1, 1) is the last stopped");
    assertEquals("complete", r.get("multicall").get(1).get(0).get("status").asText());
    assertEquals("OK", r.get("changed").asText());
    assertEquals("3", r.get("globalOption").get("max-concurrent-downloads").asText());
    assertEquals("1048576", r.get("globalOption").get("max-overall-download-limit").asText());
    assertEquals("complete", r.get("httpStatus").get("status").asText());
    assertAllStrings(r.get("fastStatus"), "fastStatus");
    assertAllStrings(r.get("activeFull"), "tellActive");
    assertAllStrings(r.get("globalStat"), "getGlobalStat");
  }

  private static List<String> strings(JsonNode list) {
    List<String> out = new ArrayList<>();
    list.forEach(n -> out.add(n.asText()));
    return out;
  }

  private static JsonNode find(JsonNode list, String gid) {
    for (JsonNode n : list) {
      if (n.get("gid").asText().equals(gid)) {
        return n;
      }
    }
    throw new AssertionError(gid + " not in " + list);
  }

  /** The notifications by name, gids replaced by their role, so that two servers' runs compare. */
  private static List<String> names(JsonNode events, JsonNode run) {
    List<String> out = new ArrayList<>();
    for (JsonNode e : events) {
      String gid = e.get("gid").asText();
      String role = gid;
      for (String name : List.of("fast", "slow", "later", "first")) {
        if (gid.equals(run.get(name).asText())) {
          role = name;
        }
      }
      out.add(e.get("event").asText() + " " + role);
    }
    return out;
  }

  /** Every key Braid answers is one aria2 answers too, both strings or both the same kind of container. */
  private static void assertSameShape(String where, JsonNode aria, JsonNode braid) {
    if (aria.isArray()) {
      assertTrue(braid.isArray(), where + " must be an array: " + braid);
      if (!aria.isEmpty() && !braid.isEmpty()) {
        assertSameShape(where + "[0]", aria.get(0), braid.get(0));
      }
    } else if (aria.isObject()) {
      assertTrue(braid.isObject(), where + " must be a struct: " + braid);
      for (Iterator<String> it = braid.fieldNames(); it.hasNext(); ) {
        String k = it.next();
        assertTrue(aria.has(k), () -> where + "." + k + " is not in aria2's answer: " + aria);
        assertSameShape(where + "." + k, aria.get(k), braid.get(k));
      }
    } else {
      assertEquals(aria.getNodeType(), braid.getNodeType(), where + ": aria2 " + aria + ", braid " + braid);
    }
  }

  private static void assertAllStrings(JsonNode n, String where) {
    if (n.isContainerNode()) {
      n.forEach(c -> assertAllStrings(c, where));
    } else {
      assertTrue(n.isTextual(), () -> where + ": every value must be a string, not " + n);
    }
  }

  private static Set<String> keys(JsonNode n) {
    Set<String> s = new HashSet<>();
    n.fieldNames().forEachRemaining(s::add);
    return s;
  }

  private static JsonNode scenario(int port, String secret) throws Exception {
    return Aria2Js.script(scenario, "scenario.js", Duration.ofSeconds(60),
        List.of(Integer.toString(port), secret, server.url("/fast.bin"), server.url("/slow.bin")));
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static void awaitListening(int port) {
    await("aria2c listening on " + port).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
        .ignoreExceptionsInstanceOf(IOException.class).until(() -> {
          try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            return true;
          }
        });
  }
}
