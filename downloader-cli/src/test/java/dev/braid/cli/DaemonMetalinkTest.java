package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.cli.CliProcess.Result;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Metalinks through a real {@code braid daemon}: {@code aria2.addMetalink} with the base64 of a
 * document (gids back, as aria2), a refused document adds nothing, and {@code braid get FILE.meta4}
 * as the daemon's thin client keeps the piece hashes.
 */
class DaemonMetalinkTest {
  static final int PIECE = 256 << 10;
  @TempDir static Path work;
  private static Path downloads;
  private static Path db;
  private static TestServer server;
  private static RpcDaemon daemon;

  @BeforeAll
  static void start() throws Exception {
    downloads = Files.createDirectories(work.resolve("downloads"));
    server = TestServer.start();
    db = work.resolve("state").resolve("state.db");
    daemon = RpcDaemon.start(work, db, downloads, "s3cret");
  }

  @AfterAll
  static void stop() throws Exception {
    daemon.close();
    server.close();
  }

  private static String base64(String doc) {
    return Base64.getEncoder().encodeToString(doc.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void addMetalinkAddsEveryFileAndAnswersTheirGids() throws Exception {
    Content a = Content.random(3 << 20, 71);
    Content b = Content.random(200_000, 72);
    server.serve("/m/a.bin", a).etag("\"a\"");
    var bad = server.serve("/m/bad-a.bin", a).etag("\"a\"");
    for (long at = 99; at < a.size(); at += 1 << 20) {
      bad.corruptBytes(at, at + 1);
    }
    server.serve("/m/b.bin", b).etag("\"b\"");
    String doc = MetalinkDocs.doc(
        MetalinkDocs.file("set/a.bin", a, PIECE, List.of(server.url("/m/a.bin"), server.url("/m/bad-a.bin"))),
        MetalinkDocs.file("set/b.bin", b, PIECE, List.of(server.url("/m/b.bin"))));
    JsonNode gids = daemon.call("aria2.addMetalink", base64(doc), Map.of("split", "4"));
    assertEquals(2, gids.size(), gids::toString);
    for (JsonNode gid : gids) {
      assertTrue(gid.asText().matches("[0-9a-f]{16}"), gids::toString);
      daemon.awaitStatus(gid.asText(), s -> s.get("status").asText().equals("complete"), Duration.ofSeconds(30));
    }
    assertEquals(a.sha256Hex(), Content.sha256Hex(downloads.resolve("set/a.bin")));
    assertEquals(b.sha256Hex(), Content.sha256Hex(downloads.resolve("set/b.bin")));
  }

  @Test
  void aRefusedDocumentAddsNothing() throws Exception {
    int before = daemon.call("aria2.tellWaiting", 0, 1000).size() + daemon.call("aria2.tellStopped", 0, 1000).size();
    String url = server.url("/m/x.bin");
    for (String doc : List.of(
        MetalinkDocs.doc("<file name=\"ok.bin\"><url>" + url + "</url></file><file name=\"../../escape.bin\"><url>" + url
            + "</url></file>"),
        "<!DOCTYPE m [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><metalink xmlns=\"urn:ietf:params:xml:ns:metalink\">"
            + "<file name=\"&e;\"><url>" + url + "</url></file></metalink>",
        "not xml at all")) {
      JsonNode e = daemon.error("aria2.addMetalink", base64(doc));
      assertEquals(1, e.get("code").asInt(), e::toString);
      assertTrue(e.get("message").asText().startsWith("Metalink refused: "), e::toString);
      assertFalse(e.get("message").asText().contains("root:"), "no file content leaks: " + e);
    }
    JsonNode notBase64 = daemon.error("aria2.addMetalink", "%%%");
    assertTrue(notBase64.get("message").asText().contains("base64"), notBase64::toString);
    int after = daemon.call("aria2.tellWaiting", 0, 1000).size() + daemon.call("aria2.tellStopped", 0, 1000).size();
    assertEquals(before, after, "a refused Metalink adds no download");
    assertFalse(Files.exists(work.resolve("escape.bin")));
    assertFalse(Files.exists(downloads.resolve("ok.bin")));
  }

  @Test
  void getOfALocalMetalinkThroughTheDaemonChecksItsPieces() throws Exception {
    Content a = Content.random(1 << 20, 73);
    server.serve("/m/only.bin", a).etag("\"o\"").corruptBytes(2 * PIECE + 1, 2 * PIECE + 2);
    Path meta = Files.writeString(work.resolve("only.meta4"),
        MetalinkDocs.doc(MetalinkDocs.file("only.bin", a, PIECE, List.of(server.url("/m/only.bin")))));
    Path out = Files.createDirectories(downloads.resolve("client"));
    Result r = CliProcess.run(work, "get", meta.toString(), "-d", out.toString(), "--state-db", db.toString());
    assertEquals(7, r.exit(), r::describe);
    assertTrue(r.stderr().contains("failed its sha-256 hash 3 times"), r::describe);
    assertFalse(Files.exists(out.resolve("only.bin")));
  }
}
