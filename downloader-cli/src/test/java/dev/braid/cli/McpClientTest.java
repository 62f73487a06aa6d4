package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.testserver.Content;
import dev.braid.testserver.Resource;
import dev.braid.testserver.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code braid mcp} driven by the official MCP TypeScript client ({@code @modelcontextprotocol/sdk}'s
 * {@code Client} over {@code StdioClientTransport}, which starts the real command as its child):
 * the tools listed, a download added from the loopback server and waited for, its bytes on disk,
 * status and list showing it as {@code braid status --json} does, bad calls refused as tool errors
 * while the server keeps answering, a slow download paused, resumed and removed, nothing but
 * protocol messages on the server's standard output, and the server ending on its own when the
 * client closes its input, its engine keeping a running download for {@code braid resume}.
 */
class McpClientTest {
  @TempDir Path work;

  @Test
  void anAgentAddsADownloadAndSeesItComplete() throws Exception {
    Path scripts = Aria2Js.install();
    // built once per suite: the time printed below is this test's own
    ChildJvm.get();
    long begun = System.nanoTime();
    Path folder = work.resolve("downloads");
    Path db = work.resolve("state.db");
    Content a = Content.random(3L << 20, 41);
    Content slow = Content.random(16L << 20, 42);
    Content held = Content.random(4L << 20, 43);
    try (TestServer server = TestServer.start()) {
      server.serve("/a.bin", a).etag("\"a\"");
      server.serve("/slow.bin", slow).etag("\"slow\"").rateLimitPerConnection(256 << 10);
      Resource heldResource = server.serve("/held.bin", held).etag("\"held\"").rateLimitPerConnection(64 << 10);
      ProcessBuilder braid = ChildJvm.get().process(work, List.of(), List.of("mcp", "--state-db", db.toString()));
      Map<String, Object> env = new LinkedHashMap<>();
      braid.environment().forEach((k, v) -> {
        if (k.startsWith("XDG_")) {
          env.put(k, v);
        }
      });
      Map<String, Object> config = new LinkedHashMap<>();
      config.put("command", braid.command().get(0));
      config.put("args", braid.command().subList(1, braid.command().size()));
      config.put("cwd", work.toString());
      config.put("env", env);
      config.put("url", server.url("/a.bin"));
      config.put("sha256", a.sha256Hex());
      config.put("slowUrl", server.url("/slow.bin"));
      config.put("heldUrl", server.url("/held.bin"));
      config.put("folder", folder.toString());
      JsonNode r = Aria2Js.script(scripts, "mcp.mjs", Duration.ofSeconds(90), List.of(RpcDaemon.JSON.writeValueAsString(config)));
      System.out.println("McpClientTest: the client's scenario took " + r.path("elapsedMs") + " ms: " + r.path("steps"));
      String stderr = r.path("stderr").asText();

      assertEquals("braid", r.path("server").path("name").asText(), r::toString);
      Map<String, JsonNode> tools = new LinkedHashMap<>();
      r.path("tools").forEach(t -> tools.put(t.path("name").asText(), t));
      assertEquals(List.of("add_download", "download_status", "list_downloads", "pause_download", "resume_download",
          "remove_download", "wait_for_download"), new ArrayList<>(tools.keySet()));
      tools.values().forEach(t -> assertTrue(t.path("described").asBoolean(), () -> "undescribed: " + t));
      assertEquals(List.of("url", "folder", "file_name", "checksum", "connections"), strings(tools.get("add_download").path("properties")));
      assertEquals(List.of("url"), strings(tools.get("add_download").path("required")));
      assertEquals(List.of("id"), strings(tools.get("wait_for_download").path("required")));

      // added, waited for, complete: the right bytes under the name the call gave, in the folder it named (made)
      JsonNode added = ok(r, "added");
      long id = added.path("id").asLong();
      assertTrue(id > 0, r::toString);
      assertEquals(server.url("/a.bin"), added.path("url").asText());
      JsonNode waited = ok(r, "waited");
      assertEquals("completed", waited.path("state").asText(), r::toString);
      assertTrue(waited.path("finished").asBoolean(), r::toString);
      Path file = folder.resolve("a.bin");
      assertEquals(a.sha256Hex(), Content.sha256Hex(file));

      // status and list show it with the fields and values of braid status --json
      JsonNode status = ok(r, "status");
      assertEquals(file.toString(), status.path("file").asText());
      assertEquals(a.size(), status.path("done").asLong());
      assertEquals(a.size(), status.path("length").asLong());
      assertEquals(status, RpcDaemon.JSON.readTree(r.path("status").path("content").path(0).path("text").asText()),
          "the text is the same object");
      JsonNode cli = RpcDaemon.JSON.readTree(CliProcess.run(work, "status", "--json", "--state-db", db.toString(),
          Long.toString(id)).assertExit(0).stdout());
      assertEquals(cli, status, "download_status shows what braid status --json shows");
      JsonNode list = ok(r, "list");
      assertEquals(1, list.path("total").asLong(), r::toString);
      assertEquals(cli, list.path("downloads").path(0));

      // each bad call is a tool error naming what is wrong, and the server answers the next one
      assertToolError(r, "badUrl", "ftp");
      assertToolError(r, "unknown", "987654");
      assertToolError(r, "relative", "absolute");
      assertToolError(r, "badChecksum", "hexadecimal");
      assertToolError(r, "notAnId", "id");

      // paused, a download has finished waiting (DaemonClientTest waits on one still going); resumed, removed
      JsonNode paused = ok(r, "paused");
      assertEquals("paused", paused.path("state").asText(), r::toString);
      assertTrue(paused.path("finished").asBoolean(), r::toString);
      assertTrue(Set.of("queued", "active").contains(ok(r, "resumed").path("state").asText()), r::toString);
      JsonNode removed = ok(r, "removed");
      assertTrue(removed.path("removed").asBoolean() && removed.path("fileDeleted").asBoolean(), r::toString);
      assertToolError(r, "afterRemove", "no download #" + ok(r, "slowAdded").path("id").asLong());
      assertEquals(1, ok(r, "listAfter").path("total").asLong(), r::toString);
      try (Stream<Path> files = Files.list(folder)) {
        assertEquals(List.of(), files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("slow")).toList(),
            "the removed download's part file went with it");
      }

      // standard output carried protocol messages only, and the server ended when its input closed,
      // before the client's SIGTERM (the SDK sends it 2 s after closing the pipe)
      assertEquals(List.of(), strings(r.path("transportErrors")));
      assertTrue(r.path("closeMs").asLong() < 2000, r::toString);
      JsonNode before = ok(r, "heldBefore");
      assertTrue(before.path("done").asLong() > 0 && before.path("done").asLong() < held.size(), r::toString);
      // its engine kept the running download: braid resume finishes it
      heldResource.rateLimitPerConnection(0);
      CliProcess.run(work, "resume", "--state-db", db.toString(), before.path("id").asText()).assertExit(0);
      assertEquals(held.sha256Hex(), Content.sha256Hex(folder.resolve("held.bin")));
      assertFalse(stderr.contains("Exception"), stderr);
      System.out.println("McpClientTest: " + Duration.ofNanos(System.nanoTime() - begun).toMillis() + " ms after the install");
    }
  }

  /** The structured content of a successful call. */
  private static JsonNode ok(JsonNode r, String step) {
    JsonNode result = r.path(step);
    assertFalse(result.path("isError").asBoolean(), () -> step + " failed: " + result);
    assertTrue(result.path("structuredContent").isObject(), () -> step + " has no structured content: " + result);
    return result.path("structuredContent");
  }

  private static void assertToolError(JsonNode r, String step, String mentioned) {
    JsonNode result = r.path(step);
    assertTrue(result.path("isError").asBoolean(), () -> step + " should be a tool error: " + result);
    String text = result.path("content").path(0).path("text").asText();
    assertTrue(text.contains(mentioned), () -> step + ": the message should mention " + mentioned + ": " + text);
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
