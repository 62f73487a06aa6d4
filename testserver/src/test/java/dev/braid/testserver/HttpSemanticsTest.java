package dev.braid.testserver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.RawClient.End;
import dev.braid.testserver.RawClient.Reply;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Status codes, headers, ranges and validators, checked on the wire. */
class HttpSemanticsTest {
  private static final int SIZE = 100_000;
  private final Content content = Content.random(SIZE, 11);
  private TestServer server;
  private RawClient client;

  @BeforeEach
  void start() throws IOException {
    server = TestServer.start();
    client = new RawClient(server);
  }

  @AfterEach
  void stop() throws IOException {
    client.close();
    server.close();
  }

  private byte[] slice(long offset, int len) {
    byte[] b = new byte[len];
    content.read(offset, b, 0, len);
    return b;
  }

  @Test
  void getServesTheWholeContentWithItsHeaders() throws IOException {
    server.serve("/f", content).etag("\"v1\"")
        .lastModified(Instant.parse("1994-11-06T08:49:37.250Z"))
        .contentDisposition("attachment; filename=\"f.bin\"");
    Reply r = client.exchange("GET", "/f");
    assertEquals(200, r.status());
    assertEquals(End.COMPLETE, r.end());
    assertArrayEquals(slice(0, SIZE), r.body());
    assertEquals(String.valueOf(SIZE), r.header("Content-Length"));
    assertEquals("application/octet-stream", r.header("Content-Type"));
    assertEquals("bytes", r.header("Accept-Ranges"));
    assertEquals("\"v1\"", r.header("ETag"));
    assertEquals("Sun, 06 Nov 1994 08:49:37 GMT", r.header("Last-Modified"));
    assertEquals("attachment; filename=\"f.bin\"", r.header("Content-Disposition"));
    assertTrue(r.header("Date").endsWith(" GMT"), r.header("Date"));
    assertNull(r.header("Connection"), "keep-alive is the HTTP/1.1 default");
  }

  @Test
  void optionalHeadersAreAbsentUnlessSet() throws IOException {
    server.serve("/f", content).acceptRangesHeader(false);
    Reply r = client.exchange("GET", "/f");
    assertNull(r.header("ETag"));
    assertNull(r.header("Last-Modified"));
    assertNull(r.header("Content-Disposition"));
    assertNull(r.header("Accept-Ranges"));
  }

  @Test
  void headSendsTheHeadersOnly() throws IOException {
    Resource f = server.serve("/f", content).etag("\"v1\"").dropAfter(0, 1);
    Reply r = client.exchange("HEAD", "/f");
    assertEquals(200, r.status());
    assertEquals(String.valueOf(SIZE), r.header("Content-Length"));
    assertEquals("\"v1\"", r.header("ETag"));
    // The next exchange on the same socket proves no body was sent, and that HEAD did not use up the fault.
    Reply ranged = client.exchange("HEAD", "/f", "Range: bytes=10-19");
    assertEquals(206, ranged.status());
    assertEquals("bytes 10-19/" + SIZE, ranged.header("Content-Range"));
    assertEquals(0, f.bodyBytesSent());
    assertEquals(End.RESET, client.exchange("GET", "/f").end());
  }

  @Test
  void rangeForms() throws IOException {
    server.serve("/f", content);
    Reply closed = client.exchange("GET", "/f", "Range: bytes=1000-1999");
    assertEquals(206, closed.status());
    assertEquals("bytes 1000-1999/" + SIZE, closed.header("Content-Range"));
    assertEquals("1000", closed.header("Content-Length"));
    assertArrayEquals(slice(1000, 1000), closed.body());

    Reply open = client.exchange("GET", "/f", "Range: bytes=99000-");
    assertEquals("bytes 99000-99999/" + SIZE, open.header("Content-Range"));
    assertArrayEquals(slice(99_000, 1000), open.body());

    Reply suffix = client.exchange("GET", "/f", "Range: bytes=-500");
    assertEquals("bytes 99500-99999/" + SIZE, suffix.header("Content-Range"));
    assertArrayEquals(slice(99_500, 500), suffix.body());

    Reply clamped = client.exchange("GET", "/f", "Range: bytes=99990-200000");
    assertEquals("bytes 99990-99999/" + SIZE, clamped.header("Content-Range"));
    assertEquals(10, clamped.body().length);
    assertEquals(1, server.connectionsAccepted());
  }

  @Test
  void unsatisfiableRangeIs416() throws IOException {
    server.serve("/f", content);
    Reply r = client.exchange("GET", "/f", "Range: bytes=" + SIZE + "-");
    assertEquals(416, r.status());
    assertEquals("bytes */" + SIZE, r.header("Content-Range"));
    assertEquals("0", r.header("Content-Length"));
    assertEquals(200, client.exchange("GET", "/f").status(), "connection still usable");
  }

  @Test
  void multipleRangesGetTheWholeBody() throws IOException {
    server.serve("/f", content);
    Reply r = client.exchange("GET", "/f", "Range: bytes=0-9,20-29");
    assertEquals(200, r.status());
    assertNull(r.header("Content-Range"));
    assertEquals(SIZE, r.body().length);
  }

  @Test
  void ifRangeWithStrongValidators() throws IOException {
    Instant modified = Instant.parse("2024-01-02T03:04:05Z");
    Resource f = server.serve("/f", content).etag("\"v1\"").lastModified(modified);
    assertEquals(206, client.exchange("GET", "/f", "Range: bytes=0-9", "If-Range: \"v1\"").status());
    assertEquals(206, client.exchange("GET", "/f", "Range: bytes=0-9", "If-Range: Tue, 02 Jan 2024 03:04:05 GMT").status());
    assertEquals(200, client.exchange("GET", "/f", "Range: bytes=0-9", "If-Range: Tue, 02 Jan 2024 03:04:06 GMT").status());
    assertEquals(200, client.exchange("GET", "/f", "Range: bytes=0-9", "If-Range: W/\"v1\"").status());

    f.etag("\"v2\"").content(Content.random(SIZE, 12));
    Reply changed = client.exchange("GET", "/f", "Range: bytes=0-9", "If-Range: \"v1\"");
    assertEquals(200, changed.status());
    assertEquals(SIZE, changed.body().length);
  }

  @Test
  void ifRangeNeverMatchesAWeakEtag() throws IOException {
    server.serve("/f", content).etag("W/\"v1\"");
    assertEquals(200, client.exchange("GET", "/f", "Range: bytes=0-9", "If-Range: W/\"v1\"").status());
    assertEquals(200, client.exchange("GET", "/f", "Range: bytes=0-9", "If-Range: \"v1\"").status());
    assertEquals(206, client.exchange("GET", "/f", "Range: bytes=0-9").status());
  }

  @Test
  void unknownPathsFixedStatusesAndMethods() throws IOException {
    server.respond("/forbidden", 403);
    assertEquals(404, client.exchange("GET", "/nothing").status());
    Reply forbidden = client.exchange("GET", "/forbidden?x=1");
    assertEquals(403, forbidden.status());
    assertEquals("403 Forbidden\n", new String(forbidden.body(), "US-ASCII"));
    Reply post = client.exchange("POST", "/forbidden");
    assertEquals(405, post.status());
    assertEquals("GET, HEAD", post.header("Allow"));
    List<RequestRecord> requests = server.requests();
    assertEquals(List.of(404, 403, 405), requests.stream().map(RequestRecord::status).toList());
    assertEquals("/forbidden?x=1", requests.get(1).path());
  }

  @Test
  void redirectsAreFollowedByHttpUrlConnection() throws IOException {
    server.serve("/real", content);
    server.redirect("/moved", "/real", 301);
    server.redirect("/elsewhere", server.url("/moved"), 307);
    Reply raw = client.exchange("GET", "/elsewhere");
    assertEquals(307, raw.status());
    assertEquals(server.url("/moved"), raw.header("Location"));

    HttpURLConnection http = (HttpURLConnection) new URL(server.url("/elsewhere")).openConnection();
    http.setRequestProperty("Range", "bytes=10-19");
    try (InputStream in = http.getInputStream()) {
      assertEquals(206, http.getResponseCode());
      assertArrayEquals(slice(10, 10), in.readAllBytes());
    }
    List<String> paths = server.requests().stream().map(RequestRecord::path).toList();
    assertEquals(List.of("/elsewhere", "/elsewhere", "/moved", "/real"), paths);
  }

  @Test
  void requestsAreRecordedWithHeadersAndStatus() throws IOException {
    server.serve("/f", content).etag("\"v1\"");
    client.exchange("GET", "/f", "Range: bytes=0-0", "If-Range: \"v1\"", "X-Test: a", "x-test: b");
    RequestRecord r = server.requests().get(0);
    assertEquals(1, r.connectionId());
    assertEquals("GET", r.method());
    assertEquals("bytes=0-0", r.range());
    assertEquals("\"v1\"", r.ifRange());
    assertEquals("a, b", r.header("X-TEST"));
    assertEquals("127.0.0.1", r.headers().get("host"));
    assertEquals(206, r.status());
    server.clearRequests();
    assertTrue(server.requests().isEmpty());
    client.exchange("GET", "/f");
    assertEquals(1, server.requests().size());
  }

  @Test
  void oversizedHeadIs431AndGarbageIs400() throws IOException {
    server.serve("/f", content);
    client.send("GET", "/f", "X-Big: " + "x".repeat(9000));
    Reply big = client.read(false);
    assertEquals(431, big.status());
    assertEquals("close", big.header("Connection"));
    assertEquals(0, client.drain(), "closed cleanly after the 431");

    try (RawClient other = new RawClient(server)) {
      other.sendRaw("NONSENSE\r\n\r\n");
      assertEquals(400, other.read(false).status());
    }
    assertEquals(List.of(431, 400), server.requests().stream().map(RequestRecord::status).toList());
    assertEquals("/f", server.requests().get(0).path());
  }

  @Test
  void hookSeesTheRequestAndCanChangeTheContentForIt() throws IOException {
    Content changed = Content.random(SIZE, 99);
    Resource f = server.serve("/f", content);
    f.onRequest(r -> {
      assertEquals(0, r.status());
      if ("bytes=50000-".equals(r.range())) {
        f.content(changed);
      }
    });
    assertArrayEquals(slice(0, 10), client.exchange("GET", "/f", "Range: bytes=0-9").body());
    byte[] second = client.exchange("GET", "/f", "Range: bytes=50000-").body();
    byte[] expected = new byte[50_000];
    changed.read(50_000, expected, 0, expected.length);
    assertArrayEquals(expected, second);
    assertNotNull(f.content());
  }
}
