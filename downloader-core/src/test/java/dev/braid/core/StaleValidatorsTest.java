package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.Resource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server that keeps a rewritten file's old validators (rclone's Last-Modified and lighttpd's
 * ETag do, for a while): If-Range alone would splice old bytes and new, so the bytes on disk are
 * compared with the server's where the validators agree.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StaleValidatorsTest extends DownloadHarness {
  private static final long SIZE = 16L << 20;
  private static final Instant MODIFIED = Instant.parse("2026-01-01T00:00:00Z");

  private Resource serveStale(Content c, long rate) {
    return server.serve("/f.bin", c).etag("\"same\"").lastModified(MODIFIED).rateLimitPerConnection(rate);
  }

  private Path pausedHalfway() throws Exception {
    Path out = dir.resolve("f.bin");
    pausedAt("/f.bin", out, SIZE / 2);
    return out;
  }

  @Test
  void aFileRewrittenBetweenRunsUnderItsOldValidatorsIsDownloadedAgainNotSpliced() throws Exception {
    Resource res = serveStale(Content.random(SIZE, 31), 4L << 20);
    Path out = pausedHalfway();
    Content v2 = Content.random(SIZE, 32);
    res.content(v2).rateLimitPerConnection(0);
    Download d = braid.submit(request("/f.bin", out).connections(4).build());
    DownloadResult r = await(d);
    assertEquals(sha256(v2), sha256(out), "old bytes and new were spliced");
    assertEquals(0, r.bytesReused());
    assertEquals(1, r.restarts());
    assertTrue(d.restartReason().orElseThrow().contains("are not the ones on disk"), d.restartReason().toString());
  }

  @Test
  void withoutRestartSuchARewriteFailsAndKeepsTheBytes() throws Exception {
    Resource res = serveStale(Content.random(SIZE, 33), 4L << 20);
    Path out = pausedHalfway();
    Path part = out.resolveSibling("f.bin.part");
    byte[] before = Files.readAllBytes(part);
    res.content(Content.random(SIZE, 34)).rateLimitPerConnection(0);
    RemoteChangedException e = assertThrows(RemoteChangedException.class,
        () -> get(request("/f.bin", out).connections(4).restartIfChanged(false)));
    assertTrue(e.getMessage().contains("are not the ones on disk"), e.getMessage());
    assertArrayEquals(before, Files.readAllBytes(part), "the part file is untouched");
  }

  @Test
  void anUnchangedFileUnderTheSameValidatorsResumesWithItsBytes() throws Exception {
    Content c = Content.random(SIZE, 35);
    Resource res = serveStale(c, 4L << 20);
    Path out = pausedHalfway();
    res.rateLimitPerConnection(0);
    DownloadResult r = get(request("/f.bin", out).connections(4));
    assertEquals(sha256(c), sha256(out));
    assertEquals(0, r.restarts());
    assertTrue(r.bytesReused() >= SIZE / 2, "reused " + r.bytesReused());
  }

  @Test
  void aNewUrlWithTheSameValidatorsButOtherBytesIsRefusedAndNothingIsSpliced() throws Exception {
    Resource res = serveStale(Content.random(SIZE, 36), 4L << 20);
    Path out = pausedHalfway();
    res.rateLimitPerConnection(0);
    server.serve("/other.bin", Content.random(SIZE, 37)).etag("\"same\"").lastModified(MODIFIED);
    Path part = out.resolveSibling("f.bin.part");
    byte[] before = Files.readAllBytes(part);
    LinkRefusedException e = assertThrows(LinkRefusedException.class, () -> get(request("/other.bin", out).connections(4)));
    assertTrue(e.getMessage().contains("are not the ones on disk"), e.getMessage());
    assertArrayEquals(before, Files.readAllBytes(part), "the part file is untouched");
  }
}
