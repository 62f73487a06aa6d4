package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code braid get} in the foreground and an outage: with {@code --retry-for} it waits the outage
 * out and exits 0 with the file byte-identical; without, it fails as before (exit 3) and says how
 * to continue. Each run gives up after one retry (--retries 1), so the wait is --retry-for's.
 */
class GetRetryForTest {
  @TempDir Path work;

  @Test
  void retryForWaitsOutAShortOutageAndExitsZero() throws Exception {
    Content c = Content.random(2L << 20, 364);
    Path file = work.resolve("f.bin");
    try (TestServer server = TestServer.start()) {
      server.serve("/f.bin", c).etag("\"f\"").rateLimitPerConnection(512 << 10);
      try (CliProcess get = CliProcess.start(work, "get", "--state-db", work.resolve("state.db").toString(), "-o",
          file.toString(), "--retries", "1", "--retry-for", "30s", server.url("/f.bin"))) {
        CliTestSupport.awaitAtLeast(server::bodyBytesSent, 256 << 10, 20_000, get);
        server.goAway(Duration.ofSeconds(2));
        get.await(Duration.ofSeconds(60)).assertExit(ExitCode.OK).assertNoStackTrace();
      }
    }
    assertEquals(c.sha256Hex(), CliTestSupport.sha256Hex(file));
  }

  @Test
  void withoutRetryForAnOutageFailsWithExitThreeAndSaysHowToContinue() throws Exception {
    try (TestServer server = TestServer.start()) {
      server.serve("/f.bin", Content.random(1 << 20, 365));
      server.goAway(Duration.ofSeconds(60));
      CliProcess.Result r = CliProcess.run(work, "get", "--state-db", work.resolve("state.db").toString(), "-o",
          work.resolve("f.bin").toString(), "--retries", "1", server.url("/f.bin")).assertExit(ExitCode.NETWORK)
          .assertNoStackTrace().assertOneErrorLine("refused", "the same command continues from the bytes kept", "--retry-for DURATION");
      assertTrue(r.stderr().startsWith("braid: "), r::describe);
    }
  }
}
