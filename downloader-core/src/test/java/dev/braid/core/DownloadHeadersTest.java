package dev.braid.core;

import dev.braid.store.DownloadState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.state.Store;
import dev.braid.testserver.Content;
import dev.braid.testserver.RequestRecord;
import dev.braid.testserver.TestServer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A download's request headers (a page's cookie) as the queue keeps them: with the download into
 * the next {@code Braid} on the same store (an app restart), replaced through
 * {@link Download#headers} (a fresh cookie, also while it runs), dropped once it completes; and a
 * run refused at its first request shows the bytes it keeps, not 0 of 0; stored credentials go
 * to their origin only.
 */
class DownloadHeadersTest extends DownloadHarness {
  private static final int LENGTH = 8 << 20;
  private final Content content = Content.random(LENGTH, 61);

  @Test
  void aRunningDownloadContinuesWithNewHeadersAtOnce() throws Exception {
    server.serve("/f.bin", content).etag("\"v\"").requireCookie("session=old").rateLimitPerConnection(2 << 20);
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin")).connections(2).header("Cookie", "session=old").build());
    awaitProgress(d, 2 << 20);
    // the session ends and the browser hands over the new one while the download runs
    server.serve("/f.bin", content).etag("\"v\"").requireCookie("session=new").rateLimitPerConnection(2 << 20);
    d.headers(Map.of("Cookie", "session=new"));
    await(d);
    assertEquals(content.sha256Hex(), sha256(dir.resolve("f.bin")));
    assertTrue(server.requests().stream().anyMatch(r -> "session=new".equals(r.header("Cookie"))),
        "the running download went on with the new cookie at once");
    try (Store store = Store.open(dir.resolve("state.db"))) {
      assertEquals(Map.of(), store.queue().headers(d.id()), "the new cookie is not kept past the completion either");
    }
  }

  @Test
  void theStoredCookieGoesIntoTheNextBraidAndIsDroppedOnceTheDownloadCompletes() throws Exception {
    server.serve("/f.bin", content).etag("\"v\"").requireCookie("session=abc").rateLimitPerConnection(2 << 20);
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin")).connections(2).header("Cookie", "session=abc")
        .header("Referer", "https://example.com/page").build());
    awaitProgress(d, 1 << 20);
    d.pause();
    assertThrows(DownloadPausedException.class, () -> await(d));
    braid.close();
    server.serve("/f.bin", content).etag("\"v\"").requireCookie("session=abc");
    braid = newBraid();
    Download again = braid.download(d.id()).orElseThrow();
    again.resume();
    await(again);
    assertEquals(content.sha256Hex(), sha256(dir.resolve("f.bin")));
    RequestRecord last = server.requests().get(server.requests().size() - 1);
    assertEquals("https://example.com/page", last.header("Referer"));
    try (Store store = Store.open(dir.resolve("state.db"))) {
      assertEquals(Map.of(), store.queue().headers(d.id()), "a completed download's cookie is not kept");
    }
  }

  @Test
  void aDownloadRefusedAfterItsCookieExpiredShowsTheBytesItKeepsAndAFreshCookieCompletesIt() throws Exception {
    server.serve("/f.bin", content).etag("\"v\"").requireCookie("session=abc").rateLimitPerConnection(2 << 20);
    Path file = dir.resolve("f.bin");
    Download d = braid.submit(request("/f.bin", file).connections(2).header("Cookie", "session=abc").build());
    awaitProgress(d, 1 << 20);
    d.pause();
    assertThrows(DownloadPausedException.class, () -> await(d));
    long kept = d.progress().done();
    server.serve("/f.bin", content).etag("\"v\"").requireCookie("session=fresh");
    d.resume();
    HttpStatusException refused = assertThrows(HttpStatusException.class, () -> await(d));
    assertEquals(403, refused.status());
    assertEquals(DownloadState.FAILED, d.state());
    assertEquals(LENGTH, d.progress().length(), "the failed download still knows its length");
    assertEquals(kept, d.progress().done(), "and the bytes it keeps for the resume");
    assertEquals(LENGTH, newBraidView(d.id()).progress().length(), "as the store recorded them");

    d.headers(Map.of("Cookie", "session=fresh"));
    d.resume();
    await(d);
    assertEquals(content.sha256Hex(), sha256(file));
  }

  @Test
  void storedCredentialsGoOnlyToTheirOriginAfterARestartNotWhereARedirectLeads() throws Exception {
    try (TestServer cdn = TestServer.start()) {
      // another port of the same host is another origin
      cdn.serve("/f.bin", content).etag("\"v\"");
      server.redirect("/away", cdn.url("/f.bin"), 302);
      Download d = braid.submitPaused(request("/away", dir.resolve("f.bin")).connections(2)
          .header("Cookie", "session=abc").bearerToken("t0ken").build());
      braid.close();
      braid = newBraid();
      Download again = braid.download(d.id()).orElseThrow();
      again.resume();
      await(again);
      assertEquals(content.sha256Hex(), sha256(dir.resolve("f.bin")));
      RequestRecord first = server.requests().get(0);
      assertEquals("session=abc", first.header("Cookie"), "the stored cookie went to its origin");
      assertEquals("Bearer t0ken", first.header("Authorization"));
      assertFalse(cdn.requests().isEmpty());
      for (RequestRecord r : cdn.requests()) {
        assertNull(r.header("Cookie"), r.toString());
        assertNull(r.header("Authorization"), r.toString());
      }
    }
  }

  /** The download as another process reading the same store sees it. */
  private Download newBraidView(long id) throws Exception {
    try (Braid other = newBraid()) {
      return other.download(id).orElseThrow();
    }
  }
}
