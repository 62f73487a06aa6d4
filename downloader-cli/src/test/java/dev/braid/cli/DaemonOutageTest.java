package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real daemon waits out outages by itself: a server that goes away mid-download (connections
 * refused) and comes back, and one that answers 503 for a while; its downloads complete with no
 * client action, byte-identical, and while they wait tellStatus says "waiting" with the next try.
 * A 404 still fails at once. The daemon's waits are tenths of seconds (--retry-wait) and each run
 * gives up after one retry (--retries 1), so that the queue's wait is what carries the download.
 */
class DaemonOutageTest {
  private static final String[] QUICK = {"--retry-wait", "0.3", "--retries", "1"};

  @TempDir Path work;

  @Test
  void downloadsCompleteThroughAServerThatGoesAwayAndComesBack() throws Exception {
    Content a = Content.random(3L << 20, 361);
    Content b = Content.random(2L << 20, 362);
    Path downloads = Files.createDirectories(work.resolve("downloads"));
    try (TestServer server = TestServer.start();
        RpcDaemon daemon = RpcDaemon.start(work, work.resolve("state.db"), downloads, "s3cret", QUICK)) {
      server.serve("/a.bin", a).etag("\"a\"").rateLimitPerConnection(512 << 10);
      server.serve("/b.bin", b).etag("\"b\"").rateLimitPerConnection(512 << 10);
      String ga = daemon.call("aria2.addUri", List.of(server.url("/a.bin")), Map.of("out", "a.bin", "split", "2")).asText();
      String gb = daemon.call("aria2.addUri", List.of(server.url("/b.bin")), Map.of("out", "b.bin", "split", "2")).asText();
      daemon.awaitStatus(ga, s -> Long.parseLong(s.get("completedLength").asText()) > (512 << 10), Duration.ofSeconds(20));
      server.goAway(Duration.ofSeconds(2));
      JsonNode waiting = daemon.awaitStatus(ga, s -> s.has("braidNextTry"), Duration.ofSeconds(20));
      assertEquals("waiting", waiting.get("status").asText(), waiting::toString);
      Instant next = Instant.parse(waiting.get("braidNextTry").asText());
      assertTrue(next.isBefore(Instant.now().plusSeconds(5)), waiting::toString);
      assertTrue(waiting.get("braidLastError").asText().contains("refused"), waiting::toString);
      assertTrue(Long.parseLong(waiting.get("completedLength").asText()) > 0, "a waiting download reports the bytes it keeps");
      for (String gid : List.of(ga, gb)) {
        JsonNode done = daemon.awaitStatus(gid, s -> !s.get("status").asText().equals("waiting")
            && !s.get("status").asText().equals("active"), Duration.ofSeconds(40));
        assertEquals("complete", done.get("status").asText(), done::toString);
        assertFalse(done.has("braidNextTry"), done::toString);
      }
      daemon.process.terminate().assertExit(ExitCode.OK);
    }
    assertEquals(a.sha256Hex(), CliTestSupport.sha256Hex(downloads.resolve("a.bin")));
    assertEquals(b.sha256Hex(), CliTestSupport.sha256Hex(downloads.resolve("b.bin")));
  }

  @Test
  void aServerAnswering503ForAWhileIsWaitedOutAndA404FailsAtOnce() throws Exception {
    Content c = Content.random(1L << 20, 363);
    Path downloads = Files.createDirectories(work.resolve("downloads"));
    try (TestServer server = TestServer.start();
        RpcDaemon daemon = RpcDaemon.start(work, work.resolve("state.db"), downloads, "s3cret", QUICK)) {
      // two requests a run (a try and its one retry): three runs fail before the file is served
      server.serve("/busy.bin", c).etag("\"busy\"").failNext(503, 6, null);
      server.respond("/gone.bin", 404);
      String busy = daemon.call("aria2.addUri", List.of(server.url("/busy.bin")), Map.of("out", "busy.bin")).asText();
      JsonNode waiting = daemon.awaitStatus(busy, s -> s.has("braidNextTry"), Duration.ofSeconds(20));
      assertEquals("waiting", waiting.get("status").asText(), waiting::toString);
      assertTrue(waiting.get("braidLastError").asText().contains("503"), waiting::toString);
      assertEquals("29", waiting.get("braidLastErrorCode").asText(), "aria2's code of a 503");
      String gone = daemon.call("aria2.addUri", List.of(server.url("/gone.bin")), Map.of("out", "gone.bin")).asText();
      JsonNode failed = daemon.awaitStatus(gone, s -> !s.get("status").asText().equals("waiting")
          && !s.get("status").asText().equals("active"), Duration.ofSeconds(20));
      assertEquals("error", failed.get("status").asText(), failed::toString);
      assertEquals("3", failed.get("errorCode").asText(), failed::toString);
      assertFalse(failed.has("braidNextTry"), failed::toString);
      JsonNode done = daemon.awaitStatus(busy, s -> s.get("status").asText().equals("complete")
          || s.get("status").asText().equals("error"), Duration.ofSeconds(40));
      assertEquals("complete", done.get("status").asText(), done::toString);
      long askedForGone = server.requests().stream().filter(r -> r.path().equals("/gone.bin")).count();
      assertEquals(1, askedForGone, "a 404 is asked once");
      daemon.process.terminate().assertExit(ExitCode.OK);
    }
    assertEquals(c.sha256Hex(), CliTestSupport.sha256Hex(downloads.resolve("busy.bin")));
  }

  @Test
  void retryOptionsAreAria2sOverRpc() throws Exception {
    Path downloads = Files.createDirectories(work.resolve("downloads"));
    try (RpcDaemon daemon = RpcDaemon.start(work, work.resolve("state.db"), downloads, "s3cret", "--retry-wait", "7")) {
      JsonNode global = daemon.call("aria2.getGlobalOption");
      assertEquals("7", global.get("retry-wait").asText(), global::toString);
      assertEquals("3600", global.get("braid-retry-for").asText(), "the default: an hour");
      daemon.call("aria2.changeGlobalOption", Map.of("max-tries", "4", "retry-wait", "2"));
      global = daemon.call("aria2.getGlobalOption");
      assertEquals("4", global.get("max-tries").asText(), global::toString);
      assertEquals("2", global.get("retry-wait").asText(), global::toString);
      assertEquals("", global.get("braid-retry-for").asText(), "max-tries replaces the time bound");
      String gid = daemon.call("aria2.addUri", List.of("http://127.0.0.1:9/x.bin"), Map.of("pause", "true", "max-tries", "9")).asText();
      assertEquals("9", daemon.call("aria2.getOption", gid).get("max-tries").asText());
      daemon.call("aria2.changeOption", gid, Map.of("retry-wait", "11"));
      JsonNode own = daemon.call("aria2.getOption", gid);
      assertEquals("11", own.get("retry-wait").asText(), own::toString);
      assertEquals("9", own.get("max-tries").asText(), own::toString);
      JsonNode bad = daemon.error("aria2.changeOption", gid, Map.of("max-tries", "-1"));
      assertTrue(bad.get("message").asText().contains("max-tries"), bad::toString);
      daemon.process.terminate().assertExit(ExitCode.OK);
    }
  }
}
