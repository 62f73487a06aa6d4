package dev.braid.testserver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.braid.testserver.RawClient.Reply;
import java.io.IOException;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The knobs that emulate Apache's weak dates, content codings and digests, observed on the wire. */
class RepresentationKnobsTest {
  private static final int SIZE = 50_000;
  private final Content content = Content.random(SIZE, 21);
  private TestServer server;

  @BeforeEach
  void start() throws IOException {
    server = TestServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Reply get(String path, String... headers) throws IOException {
    try (RawClient client = new RawClient(server)) {
      return client.exchange("GET", path, headers);
    }
  }

  @Test
  void weakDatesAnswerADateIfRangeWithTheWholeFileButStillServeRanges() throws IOException {
    Instant modified = Instant.parse("2026-03-04T05:06:07Z");
    server.serve("/f", content).etag("W/\"w1\"").lastModified(modified).weakDates(true);
    String date = Response.httpDate(modified);
    Reply withDate = get("/f", "Range: bytes=100-199", "If-Range: " + date);
    assertEquals(200, withDate.status());
    assertEquals(SIZE, withDate.body().length);
    Reply plain = get("/f", "Range: bytes=100-199");
    assertEquals(206, plain.status());
    assertEquals("W/\"w1\"", plain.header("ETag"));
    assertEquals(date, plain.header("Last-Modified"));
  }

  @Test
  void contentEncodingLabelsEveryResponseWithoutChangingItsBytes() throws IOException {
    server.serve("/f.gz", content).contentEncoding("gzip");
    Reply range = get("/f.gz", "Range: bytes=0-99");
    assertEquals(206, range.status());
    assertEquals("gzip", range.header("Content-Encoding"));
    byte[] expected = new byte[100];
    content.read(0, expected, 0, 100);
    assertArrayEquals(expected, range.body());
  }

  @Test
  void encodedWhenAcceptedServesTheOtherRepresentationOnlyToThoseWhoAskForIt() throws IOException {
    Content encoded = Content.random(1_000, 22);
    server.serve("/f", content).etag("\"p1\"").encodedWhenAccepted("gzip", encoded);
    Reply asked = get("/f", "Accept-Encoding: gzip, deflate");
    assertEquals("gzip", asked.header("Content-Encoding"));
    assertEquals("\"p1-gzip\"", asked.header("ETag"));
    assertEquals(1_000, asked.body().length);
    Reply identity = get("/f", "Accept-Encoding: identity");
    assertNull(identity.header("Content-Encoding"));
    assertEquals("\"p1\"", identity.header("ETag"));
    assertEquals(SIZE, identity.body().length);
  }

  @Test
  void contentDigestCoversEachResponsesOwnBytesAndExtraHeadersAreSent() throws IOException {
    server.serve("/f", content).contentDigest(true).header("Repr-Digest", "sha-256=:AAAA:");
    Reply range = get("/f", "Range: bytes=100-199");
    assertEquals(206, range.status());
    assertEquals("sha-256=:" + Base64.getEncoder().encodeToString(content.sha256(100, 100)) + ":",
        range.header("Content-Digest"));
    assertEquals("sha-256=:AAAA:", range.header("Repr-Digest"));
    Reply whole = get("/f");
    assertEquals("sha-256=:" + Base64.getEncoder().encodeToString(content.sha256()) + ":", whole.header("Content-Digest"));
  }
}
