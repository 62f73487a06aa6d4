package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.cli.CliProcess.Result;
import dev.braid.testserver.Content;
import dev.braid.testserver.H2TestServer;
import dev.braid.testserver.RequestRecord;
import dev.braid.testserver.TestCertificate;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTP/2 in a child JVM with a small heap, against Apache's answer for a file modified within the
 * last second: a weak ETag, and the whole file (200) for every ranged request with an If-Range,
 * 32 MiB each, none of them read, while ranges without If-Range are served. With a 16 MiB window
 * per stream, 16 such streams ran the launcher's 256 MiB heap out of memory against Apache (exit 1,
 * or a hang); the streams' windows now come from one bounded budget, and 64 MiB of heap is plenty.
 * The 200s carry the probe's validators (and, over HTTP/2, no Content-Length), so they are no
 * change of the file: the download ends with the file. ({@code ignoreRange} from the first
 * If-Range on would answer the next pass's probe with a 200 too: a server that stopped serving
 * ranges, not Apache's fresh file; {@code weakDates} is the case.)
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class CliHttp2MemoryTest {
  @TempDir Path work;

  @Test
  void sixteenStreamsOfApachesFreshFileFitASmallHeapAndEndWithTheFile() throws Exception {
    Content content = Content.random(32 << 20, 12);
    try (TestCertificate cert = TestCertificate.generate(); H2TestServer server = H2TestServer.start(cert)) {
      server.serve("/f", content).etag("W/\"2000000-5f\"").lastModified(Instant.now().truncatedTo(ChronoUnit.SECONDS))
          .weakDates(true);
      Result run = CliProcess.run(work, List.of("-Xmx64m"), "get", server.url("/f"), "-o", "f.bin", "-q", "-c", "16",
          "--http2", "--ca-cert", cert.pemFile().toString());
      assertFalse(run.stderr().contains("OutOfMemoryError") || run.stderr().contains("internal error"), run.describe());
      assertEquals(0, run.exit(), run.describe());
      assertEquals(content.sha256Hex(), Content.sha256Hex(work.resolve("f.bin")));
      assertTrue(server.protocols().stream().allMatch("HTTP/2.0"::equals), server.protocols().toString());
      List<RequestRecord> requests = server.requests();
      assertTrue(requests.stream().anyMatch(q -> q.range() != null && q.ifRange() != null),
          "ranges were asked for with If-Range (and got the whole file): " + requests);
      assertTrue(requests.stream().anyMatch(q -> q.range() != null && q.ifRange() == null
          && !q.range().startsWith("bytes=0-")), "the ranges went on without If-Range: " + requests);
    }
  }
}
