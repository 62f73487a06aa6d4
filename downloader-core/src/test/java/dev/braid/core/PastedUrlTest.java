package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** Links as people paste them: what a browser, wget or aria2 percent-encodes is encoded, not refused. */
class PastedUrlTest extends DownloadHarness {

  @Test
  void aSpaceAndALonePercentAreSentEncodedAndTheFileKeepsTheirName() throws Exception {
    Content spaced = Content.random(50_000, 61);
    Content percent = Content.random(40_000, 62);
    server.serve("/dl/file%20name%20%5B1%5D.bin", spaced);
    server.serve("/100%25.zip", percent);

    Download d = braid.submit(DownloadRequest.builder(server.url("/dl/file name [1].bin")).directory(dir).build());
    await(d);
    assertEquals(server.url("/dl/file%20name%20%5B1%5D.bin"), d.url());
    assertEquals(spaced.sha256Hex(), sha256(dir.resolve("file name [1].bin")));

    await(braid.submit(DownloadRequest.builder(server.url("/100%.zip") + "?v=1|2").directory(dir).build()));
    assertEquals(percent.sha256Hex(), sha256(dir.resolve("100%.zip")));
    assertTrue(server.requests().stream().anyMatch(r -> r.path().equals("/100%25.zip?v=1%7C2")), server.requests()::toString);
  }

  @Test
  void aUrlTheStrictParseTakesIsKeptAsGiven() throws Exception {
    // an escape already there is not escaped again
    assertEquals("http://127.0.0.1/a%20b%25c", DownloadRequest.builder("http://127.0.0.1/a%20b%25c").build().uri().toString());
    assertEquals("http://127.0.0.1/a+b?x=%2F", DownloadRequest.builder("http://127.0.0.1/a+b?x=%2F").build().uri().toString());
  }

  @Test
  void whatStaysMalformedIsSaid() {
    InvalidRequestException noScheme = assertThrows(InvalidRequestException.class,
        () -> DownloadRequest.builder("example.org/f.iso").build());
    assertEquals("malformed URL example.org/f.iso: it needs http:// or https://", noScheme.getMessage());
    // a control character is no pasted text: refused, not encoded
    InvalidRequestException control = assertThrows(InvalidRequestException.class,
        () -> DownloadRequest.builder("http://127.0.0.1/a\u0001b").build());
    assertTrue(control.getMessage().startsWith("malformed URL"), control.getMessage());
    assertTrue(Files.notExists(dir.resolve("a")));
  }
}
