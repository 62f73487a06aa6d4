package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.RequestRecord;
import dev.braid.testserver.Resource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A file rewritten on the server while it downloads, where the validators cannot tell: a server
 * that keeps a rewritten file's old ETag and Last-Modified (rclone), and one without ranges whose
 * one response streams a file rewritten under it (Python's http.server). A pass of a second or
 * more looks at the server once more before the rename.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EndCheckTest extends DownloadHarness {
  private static final long SIZE = 4L << 20;
  private static final Instant MODIFIED = Instant.parse("2026-01-01T00:00:00Z");

  /** Rewritten a quarter of the way in: each later range gets the new bytes under the old validators. */
  private Download rewrittenUnderStaleValidators(Content v2, boolean restart) throws Exception {
    Resource res = server.serve("/f.bin", Content.random(SIZE, 41)).etag("\"same\"").lastModified(MODIFIED)
        .rateLimitPerConnection(512 << 10);
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin")).connections(4).restartIfChanged(restart).build());
    awaitProgress(d, SIZE / 4);
    res.content(v2);
    return d;
  }

  @Test
  void aFileRewrittenUnderItsOldValidatorsWhileItDownloadsIsDownloadedAgainNotSpliced() throws Exception {
    Content v2 = Content.random(SIZE, 42);
    Download d = rewrittenUnderStaleValidators(v2, true);
    DownloadResult r = await(d);
    assertEquals(sha256(v2), sha256(dir.resolve("f.bin")), "old bytes and new were spliced");
    assertEquals(1, r.restarts());
    assertTrue(d.restartReason().orElseThrow().contains("changed while the file was downloaded"),
        d.restartReason().toString());
  }

  @Test
  void withoutRestartSuchAChangeFailsAndKeepsTheBytes() throws Exception {
    Download d = rewrittenUnderStaleValidators(Content.random(SIZE, 43), false);
    RemoteChangedException e = assertThrows(RemoteChangedException.class, () -> await(d));
    assertTrue(e.getMessage().contains("changed while the file was downloaded"), e.getMessage());
    Path part = dir.resolve("f.bin.part");
    assertEquals(SIZE, Files.size(part), "the part file is kept");
    assertTrue(Files.notExists(dir.resolve("f.bin")), "nothing got the final name");
  }

  @Test
  void aServerWithoutRangesWhoseFileChangedMidStreamIsDownloadedAgain() throws Exception {
    Resource res = server.serve("/n.bin", Content.random(SIZE, 44)).lastModified(MODIFIED).ignoreRange(true)
        .acceptRangesHeader(false).rateLimitPerConnection(2L << 20);
    Download d = braid.submit(request("/n.bin", dir.resolve("n.bin")).build());
    awaitProgress(d, SIZE / 4);
    Content v2 = Content.random(SIZE, 45);
    res.content(v2).lastModified(MODIFIED.plusSeconds(60));
    DownloadResult r = await(d);
    assertEquals(sha256(v2), sha256(dir.resolve("n.bin")), "the file served at the end is the one saved");
    assertEquals(1, r.restarts());
    assertTrue(d.restartReason().orElseThrow().contains("Last-Modified changed"), d.restartReason().toString());
  }

  @Test
  void aLastModifiedThatIsTheServersClockIsNoChange() throws Exception {
    // a generated response: Last-Modified and Date are the second each answer is sent
    Content c = Content.random(SIZE, 46);
    server.serve("/g.bin", c).clockDates(true).ignoreRange(true).acceptRangesHeader(false)
        .rateLimitPerConnection(2L << 20);
    DownloadResult r = get(request("/g.bin", dir.resolve("g.bin")));
    assertEquals(sha256(c), sha256(dir.resolve("g.bin")));
    assertEquals(0, r.restarts());
    assertEquals(2, requestsFor("/g.bin").size(), "the download and the end check's look");
  }

  @Test
  void anUnchangedLongDownloadAsksForItsFirstBytesOnceMoreAndAShortOneDoesNot() throws Exception {
    Content c = Content.random(SIZE, 47);
    server.serve("/u.bin", c).etag("\"u\"").lastModified(MODIFIED).rateLimitPerConnection(512 << 10);
    DownloadResult r = get(request("/u.bin", dir.resolve("u.bin")).connections(4));
    assertEquals(sha256(c), sha256(dir.resolve("u.bin")));
    assertEquals(0, r.restarts());
    List<RequestRecord> asked = requestsFor("/u.bin");
    assertEquals("bytes=0-16383", asked.get(asked.size() - 1).header("range"), "the last request is the end check's");

    Content small = Content.random(64 << 10, 48);
    server.serve("/s.bin", small).etag("\"s\"");
    get(request("/s.bin", dir.resolve("s.bin")));
    assertEquals(1, requestsFor("/s.bin").size(), "a pass shorter than a second is not checked");
  }

  @Test
  void aLookThatCannotBeMadeProvesNothingAndTheDownloadCompletesWithANote() throws Exception {
    // one connection, one request (the probe asks for 4 MiB): the next request is the end check's
    Content c = Content.random(SIZE, 49);
    Resource res = server.serve("/x.bin", c).etag("\"x\"").rateLimitPerConnection(2L << 20);
    Download d = braid.submit(request("/x.bin", dir.resolve("x.bin")).connections(1).build());
    awaitProgress(d, SIZE / 4);
    // a signed link that expired while it downloaded
    res.failNext(403, 1, null);
    DownloadResult r = await(d);
    assertEquals(sha256(c), sha256(dir.resolve("x.bin")));
    assertEquals(0, r.restarts());
    assertEquals(403, requestsFor("/x.bin").get(requestsFor("/x.bin").size() - 1).status(), "the end check was refused");
    assertTrue(d.notes().stream().anyMatch(n -> n.message().contains("could not look at the server once more")),
        d.notes().toString());
  }

  private List<RequestRecord> requestsFor(String path) {
    return server.requests().stream().filter(q -> q.path().equals(path)).toList();
  }
}
