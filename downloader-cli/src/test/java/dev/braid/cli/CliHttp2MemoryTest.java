package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.cli.CliProcess.Result;
import dev.braid.testserver.Content;
import dev.braid.testserver.H2TestServer;
import dev.braid.testserver.Resource;
import dev.braid.testserver.TestCertificate;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTP/2 in a child JVM with a small heap, against a server that answers every ranged If-Range
 * with the whole file, as Apache does for a file modified within the last second: 16 streams of a
 * 32 MiB body each, none of them read. With a 16 MiB window per stream, 16 such streams ran the
 * launcher's 256 MiB heap out of memory against Apache (exit 1, or a hang); the streams' windows
 * now come from one bounded budget, and 64 MiB of heap is plenty.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class CliHttp2MemoryTest {
  @TempDir Path work;

  @Test
  void sixteenWholeFileAnswersOverHttp2FitASmallHeapAndEndWithATypedResult() throws Exception {
    Content content = Content.random(32 << 20, 12);
    try (TestCertificate cert = TestCertificate.generate(); H2TestServer server = H2TestServer.start(cert)) {
      Resource r = server.serve("/f", content).lastModified(Instant.now());
      // the probe carries no If-Range and gets its 206; every range after it, the whole file
      r.onRequest(q -> {
        if (q.ifRange() != null) {
          r.ignoreRange(true);
        }
      });
      Result run = CliProcess.run(work, List.of("-Xmx64m"), "get", server.url("/f"), "-o", "f.bin", "-q", "-c", "16",
          "--http2", "--ca-cert", cert.pemFile().toString());
      assertFalse(run.stderr().contains("OutOfMemoryError") || run.stderr().contains("internal error"), run.describe());
      // each 200 counts as a change of the file; the pass after it, whose probe gets a 200 too,
      // takes the whole file from a server "without ranges" (exit 0); giving up on changes is exit 5
      assertTrue(run.exit() == 5 || run.exit() == 0, run.describe());
      if (run.exit() == 0) {
        assertEquals(content.sha256Hex(), Content.sha256Hex(work.resolve("f.bin")));
      }
      assertTrue(server.protocols().stream().allMatch("HTTP/2.0"::equals), server.protocols().toString());
      assertTrue(server.requests().size() > 2, "ranges were asked for: " + server.requests().size());
    }
  }
}
