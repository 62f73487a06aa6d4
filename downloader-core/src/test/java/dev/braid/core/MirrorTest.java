package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Mirrors: ranges spread over copies of one file on other servers, which must be the same file. */
class MirrorTest extends DownloadHarness {
  TestServer mirror;

  @BeforeEach
  void startMirror() throws Exception {
    mirror = TestServer.start();
  }

  @AfterEach
  void stopMirror() {
    mirror.close();
  }

  @Test
  void rangesAreSpreadOverMirrors() throws Exception {
    Content c = Content.random(16 << 20, 1);
    server.serve("/f.bin", c).etag("\"same\"").rateLimitPerConnection(2 << 20);
    mirror.serve("/copy.bin", c).etag("\"same\"").rateLimitPerConnection(2 << 20);
    DownloadResult r = get(request("/f.bin", dir.resolve("f.bin")).connections(4).mirrors(List.of(mirror.url("/copy.bin"))));
    assertEquals(c.sha256Hex(), sha256(r.file()));
    long fromMirror = mirror.bodyBytesSent();
    assertTrue(fromMirror > 2 << 20, "the mirror served only " + fromMirror + " bytes");
    assertTrue(server.bodyBytesSent() > 2 << 20, "the main URL served only " + server.bodyBytesSent() + " bytes");
  }

  @Test
  void aMirrorThatDiesMidwayIsDroppedAndTheDownloadCompletes() throws Exception {
    Content c = Content.random(8 << 20, 2);
    server.serve("/f.bin", c).etag("\"same\"").rateLimitPerConnection(4 << 20);
    // every response of the mirror breaks after 256 KiB
    mirror.serve("/copy.bin", c).etag("\"same\"").dropAfter(256 << 10, 1000);
    DownloadResult r = get(request("/f.bin", dir.resolve("f.bin")).connections(4).mirrors(List.of(mirror.url("/copy.bin"))));
    assertEquals(c.sha256Hex(), sha256(r.file()));
  }

  @Test
  void aMirrorServingAnotherFileFailsTheDownloadBeforeAnySplice() throws Exception {
    server.serve("/f.bin", Content.random(4 << 20, 3)).etag("\"a\"");
    mirror.serve("/copy.bin", Content.random(4 << 20, 4)).etag("\"b\"");
    Exception e = assertThrows(Exception.class,
        () -> get(request("/f.bin", dir.resolve("f.bin")).mirrors(List.of(mirror.url("/copy.bin")))));
    assertInstanceOf(IntegrityException.class, e);
    assertTrue(e.getMessage().contains("different file"), e.getMessage());
    assertFalse(Files.exists(dir.resolve("f.bin")));
  }

  @Test
  void anUnreachableMirrorIsLeftOut() throws Exception {
    Content c = Content.random(2 << 20, 5);
    server.serve("/f.bin", c).etag("\"same\"");
    mirror.respond("/copy.bin", 404);
    DownloadResult r = get(request("/f.bin", dir.resolve("f.bin")).mirrors(List.of(mirror.url("/copy.bin"))));
    assertEquals(c.sha256Hex(), sha256(r.file()));
  }

  @Test
  void aMirrorUrlWithCredentialsIsRefusedWithoutEchoingThem() {
    InvalidRequestException e = assertThrows(InvalidRequestException.class, () -> request("/f.bin", dir.resolve("f.bin"))
        .mirrors(List.of("http://user:s3cret@" + mirror.url("/copy.bin").substring("http://".length()))).build());
    assertFalse(e.getMessage().contains("s3cret"), e.getMessage());
    assertTrue(e.getMessage().contains("mirror"), e.getMessage());
  }
}
