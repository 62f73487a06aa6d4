package dev.braid.cli;

import static dev.braid.cli.CliTestSupport.SIGKILLED;
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

/**
 * A browser extension's hand-off (Aria2-Explorer's addUri: the page's cookie, referer and user
 * agent as options) to a real {@code braid daemon}: the download needs the cookie on every
 * request, so it survives a SIGKILL of the daemon only if the queue kept it; a cookie that expired
 * is replaced by changeOption and the download completes; a refused download shows the bytes it
 * keeps; getOption never shows the cookie.
 */
class DaemonBrowserHeadersTest {
  private static final long SIZE = 8L << 20;
  private static final String COOKIE = "session=br0wser-s3ssion";

  @TempDir Path work;

  @Test
  void aCookieDownloadOfAKilledDaemonCompletesAfterARestartWithoutAnyClient() throws Exception {
    Content content = Content.random(SIZE, 81);
    Path downloads = Files.createDirectories(work.resolve("downloads"));
    Path db = work.resolve("state.db");
    try (TestServer server = TestServer.start()) {
      // 4 connections at 512 KiB/s each: about 4 s in all, so the kill lands mid-way
      server.serve("/page.bin", content).etag("\"p\"").requireCookie(COOKIE).rateLimitPerConnection(512 << 10);
      Map<String, Object> browser = Map.of("out", "page.bin", "split", "4",
          "header", List.of("Cookie: " + COOKIE + "; theme=dark"), "referer", "https://example.com/page",
          "user-agent", "Mozilla/5.0 Test");
      String gid;
      try (RpcDaemon first = RpcDaemon.start(work, db, downloads, "s3cret")) {
        // as the extension sends it: from its own origin, which no --rpc-allow-origin names
        gid = first.callFrom("chrome-extension://abcdefghijklmnopabcdefghijklmnop", "aria2.addUri",
            List.of(server.url("/page.bin")), browser).asText();
        assertFalse(first.call("aria2.getOption", gid).toString().contains("br0wser"), "getOption shows no cookie");
        CliTestSupport.awaitAtLeast(() -> CliTestSupport.recordedBytes(db), 1, 20_000, first.process);
        long before = Long.parseLong(first.call("aria2.tellStatus", gid, List.of("completedLength")).get("completedLength").asText());
        assertTrue(before < SIZE, "the download finished before the kill: make it slower");
        assertEquals(SIGKILLED, first.process.kill().exit());
        assertFalse(first.process.stderrSoFar().contains("br0wser"));
      }
      int beforeRestart = server.requests().size();
      try (RpcDaemon second = RpcDaemon.start(work, db, downloads, "s3cret")) {
        JsonNode done = second.awaitStatus(gid, s -> !s.get("status").asText().equals("active")
            && !s.get("status").asText().equals("waiting"), Duration.ofSeconds(40));
        assertEquals("complete", done.get("status").asText(), done::toString);
        assertEquals(Long.toString(SIZE), done.get("completedLength").asText());
        assertFalse(second.call("aria2.getOption", gid).toString().contains("br0wser"));
        assertFalse(second.process.stderrSoFar().contains("br0wser"));
        second.process.terminate().assertExit(ExitCode.OK);
      }
      List<RequestRecord> resumed = server.requests().subList(beforeRestart, server.requests().size());
      assertFalse(resumed.isEmpty());
      for (RequestRecord r : resumed) {
        assertEquals(COOKIE + "; theme=dark", r.header("Cookie"), r.toString());
        assertEquals("https://example.com/page", r.header("Referer"));
        assertEquals("Mozilla/5.0 Test", r.header("User-Agent"));
      }
    }
    assertEquals(content.sha256Hex(), CliTestSupport.sha256Hex(downloads.resolve("page.bin")), "byte-identical after the restart");
  }

  @Test
  void anExpiredCookieFailsTheDownloadWhichShowsItsKeptBytesAndAFreshOneByChangeOptionCompletesIt() throws Exception {
    Content content = Content.random(SIZE, 82);
    Path downloads = Files.createDirectories(work.resolve("downloads"));
    try (TestServer server = TestServer.start();
        RpcDaemon d = RpcDaemon.start(work, work.resolve("state.db"), downloads, "s3cret")) {
      server.serve("/page.bin", content).etag("\"p\"").requireCookie("session=old").rateLimitPerConnection(512 << 10);
      Map<String, Object> added = Map.of("out", "page.bin", "split", "4", "header", "Cookie: session=old");
      String gid = d.call("aria2.addUri", List.of(server.url("/page.bin")), added).asText();
      d.awaitStatus(gid, s -> Long.parseLong(s.get("completedLength").asText()) >= 1 << 20, Duration.ofSeconds(20));
      d.call("aria2.forcePause", gid);
      d.awaitStatus(gid, s -> s.get("status").asText().equals("paused"), Duration.ofSeconds(20));
      // the browser's session ends meanwhile
      server.serve("/page.bin", content).etag("\"p\"").requireCookie("session=new");
      d.call("aria2.unpause", gid);
      JsonNode failed = d.awaitStatus(gid, s -> s.get("status").asText().equals("error"), Duration.ofSeconds(20));
      long kept = Long.parseLong(failed.get("completedLength").asText());
      assertTrue(kept >= 1 << 20, "a failed download reports the bytes it keeps: " + failed);
      assertEquals(Long.toString(SIZE), failed.get("totalLength").asText(), failed::toString);
      // the piece map of the bytes kept (no whole piece yet, 1 MiB spread over 4 connections)
      assertEquals("8", failed.path("numPieces").asText(), failed::toString);
      JsonNode stopped = d.call("aria2.tellStopped", 0, 10, List.of("gid", "completedLength", "totalLength"));
      assertEquals(Long.toString(kept), stopped.get(0).get("completedLength").asText(), stopped::toString);
      assertEquals(Long.toString(SIZE), stopped.get(0).get("totalLength").asText());

      assertEquals("OK", d.call("aria2.changeOption", gid, Map.of("header", List.of("Cookie: session=new"))).asText());
      assertFalse(d.call("aria2.getOption", gid).toString().contains("session="), "getOption shows no cookie");
      // AriaNg's retry: the same URL and options again, without headers (getOption gave none)
      String again = d.call("aria2.addUri", List.of(server.url("/page.bin")), Map.of("out", "page.bin", "split", "4")).asText();
      assertEquals(gid, again, "the same download continues");
      JsonNode done = d.awaitStatus(gid, s -> !s.get("status").asText().equals("active")
          && !s.get("status").asText().equals("waiting"), Duration.ofSeconds(30));
      assertEquals("complete", done.get("status").asText(), done::toString);
      JsonNode complete = d.error("aria2.changeOption", gid, Map.of("header", List.of("Cookie: session=late")));
      assertTrue(complete.get("message").asText().contains("complete"), complete::toString);
      d.process.terminate().assertExit(ExitCode.OK);
    }
    assertEquals(content.sha256Hex(), CliTestSupport.sha256Hex(downloads.resolve("page.bin")));
  }
}
