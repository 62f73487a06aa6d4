package dev.braid.cli;

import static dev.braid.cli.CliTestSupport.sha256Hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.testserver.Content;
import dev.braid.testserver.RequestRecord;
import dev.braid.testserver.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code braid daemon --rules}: addUri gets a host's rules and, without dir, its category's folder, only where the daemon may write. */
class DaemonRulesTest {
  @TempDir Path work;

  @Test
  void addUriWithoutDirGetsTheCategoryFolderOnlyWhenItIsAllowed() throws Exception {
    Path downloads = Files.createDirectories(work.resolve("dl"));
    Path video = work.resolve("Video");
    Path rules = work.resolve("rules.toml");
    Files.writeString(rules, """
        [hosts."127.0.0.1"]
        headers = { X-Rule = "daemon" }

        [categories.video]
        extensions = ["mp4"]
        folder = "%s"
        """.formatted(video));
    Content clip = Content.random(1 << 20, 8);
    Content doc = Content.random(1 << 19, 9);
    try (TestServer server = TestServer.start()) {
      server.serve("/clip.mp4", clip).etag("\"c\"");
      server.serve("/doc.pdf", doc).etag("\"d\"");
      Path db = work.resolve("state.db");
      try (RpcDaemon daemon = RpcDaemon.start(work, db, downloads, "s3cret", "--rules", rules.toString())) {
        assertTrue(daemon.process.stderrSoFar().contains("the folder of category video (" + video + ") is outside -d"),
            daemon.process.stderrSoFar());
        JsonNode e = daemon.error("aria2.addUri", List.of(server.url("/clip.mp4")));
        assertEquals(1, e.get("code").asInt(), e.toString());
        assertTrue(e.get("message").asText().startsWith("category video: dir " + video + " is outside"), e.toString());
        // a dir the call names is the call's choice, inside the allowed folders
        String gid = daemon.call("aria2.addUri", List.of(server.url("/clip.mp4")),
            Map.of("dir", downloads.resolve("named").toString())).asText();
        daemon.awaitStatus(gid, s -> s.get("status").asText().equals("complete"), Duration.ofSeconds(20));
        assertEquals(clip.sha256Hex(), sha256Hex(downloads.resolve("named/clip.mp4")));
      }
      server.clearRequests();
      try (RpcDaemon daemon = RpcDaemon.start(work, db, downloads, "s3cret", "--rules", rules.toString(),
          "--allow-dir", video.toString())) {
        String gid = daemon.call("aria2.addUri", List.of(server.url("/clip.mp4"))).asText();
        daemon.awaitStatus(gid, s -> s.get("status").asText().equals("complete"), Duration.ofSeconds(20));
        assertEquals(clip.sha256Hex(), sha256Hex(video.resolve("clip.mp4")));
        String other = daemon.call("aria2.addUri", List.of(server.url("/doc.pdf")),
            Map.of("header", List.of("X-Rule: call"))).asText();
        daemon.awaitStatus(other, s -> s.get("status").asText().equals("complete"), Duration.ofSeconds(20));
        assertEquals(doc.sha256Hex(), sha256Hex(downloads.resolve("doc.pdf")), "no category: the daemon's folder");
      }
      for (RequestRecord q : server.requests()) {
        assertEquals(q.path().equals("/doc.pdf") ? "call" : "daemon", q.header("X-Rule"), q.toString());
      }
    }
    Path broken = work.resolve("broken.toml");
    Files.writeString(broken, "[categories.video]\nfolder = \"relative\"\nextensions = [\"mp4\"]\n");
    try (CliProcess p = CliProcess.start(work, "daemon", "--state-db", work.resolve("other.db").toString(),
        "--rpc-listen-port", "0", "--rules", broken.toString())) {
      CliProcess.Result r = p.await(Duration.ofSeconds(30)).assertExit(2);
      assertTrue(r.stderr().contains(broken + ":2: categories.video.folder: the folder of category video must be absolute"),
          r.describe());
    }
  }

  @Test
  void aCategoryFolderThatLinksIntoTheDaemonsFolderIsNotWarnedOfAndIsWrittenThrough() throws Exception {
    Path downloads = Files.createDirectories(work.resolve("dl"));
    Path music = Files.createSymbolicLink(work.resolve("Music"), Files.createDirectories(downloads.resolve("music")));
    Path rules = work.resolve("rules.toml");
    Files.writeString(rules, """
        [categories.music]
        extensions = ["mp3"]
        folder = "%s"
        """.formatted(music));
    Content song = Content.random(1 << 19, 10);
    try (TestServer server = TestServer.start()) {
      server.serve("/song.mp3", song).etag("\"s\"");
      try (RpcDaemon daemon = RpcDaemon.start(work, work.resolve("state.db"), downloads, "s3cret", "--rules", rules.toString())) {
        String gid = daemon.call("aria2.addUri", List.of(server.url("/song.mp3"))).asText();
        daemon.awaitStatus(gid, s -> s.get("status").asText().equals("complete"), Duration.ofSeconds(20));
        assertEquals(song.sha256Hex(), sha256Hex(downloads.resolve("music/song.mp3")));
        assertFalse(daemon.process.stderrSoFar().contains("WARNING: the folder of category"), daemon.process.stderrSoFar());
      }
    }
  }
}
