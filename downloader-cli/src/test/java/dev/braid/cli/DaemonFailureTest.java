package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A daemon whose heap runs out ends itself with exit 70 and one {@code braid: fatal:} line,
 * instead of limping on (Undertow's worker pool would only log the error); started again, its
 * queue goes on. The heap is made to run out for real: a 16 MiB heap and eight batches at once
 * that each parse into a tree of some 7 MB (within the limits of {@code Dispatcher}, which keep a
 * daemon of the default heap well clear of it).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class DaemonFailureTest {
  @TempDir Path work;

  @Test
  void aDaemonOutOfMemoryExitsWithSeventyAndItsQueueResumesAfterARestart() throws Exception {
    Content content = Content.random(2L << 20, 70);
    Path downloads = Files.createDirectories(work.resolve("downloads"));
    String db = work.resolve("state.db").toString();
    try (TestServer server = TestServer.start()) {
      server.serve("/f.bin", content).etag("\"f\"").rateLimitPerConnection(128 << 10);
      String gid;
      try (RpcDaemon small = RpcDaemon.start(work, List.of("-Xmx16m"), db, downloads, "s3cret")) {
        gid = small.call("aria2.addUri", List.of(server.url("/f.bin")), Map.of("out", "f.bin")).asText();
        // under the token limit, each becomes a tree of some 7 MB before its calls are counted
        String batch = "[" + "[],".repeat(120_000) + "[]]";
        HttpClient client = HttpClient.newHttpClient();
        for (int i = 0; i < 8; i++) {
          client.sendAsync(HttpRequest.newBuilder(small.uri()).POST(HttpRequest.BodyPublishers.ofString(batch)).build(),
              HttpResponse.BodyHandlers.discarding());
        }
        CliProcess.Result r = small.process.await(Duration.ofSeconds(30)).assertExit(ExitCode.ENGINE_FAILED);
        assertTrue(r.stderr().contains("braid: fatal: thread ") && r.stderr().contains("OutOfMemoryError"), r::describe);
        assertTrue(r.stderr().contains("the daemon exits with 70"), r::describe);
      }
      try (RpcDaemon again = RpcDaemon.start(work, db, downloads, "s3cret")) {
        JsonNode done = again.awaitStatus(gid, s -> s.get("status").asText().equals("complete"), Duration.ofSeconds(40));
        assertEquals(Long.toString(content.size()), done.get("completedLength").asText());
        again.process.terminate().assertExit(ExitCode.OK);
      }
    }
    assertEquals(content.sha256Hex(), CliTestSupport.sha256Hex(downloads.resolve("f.bin")));
  }
}
