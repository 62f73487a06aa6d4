package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.nio.file.Files;
import java.time.Instant;
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
  void aMirrorServingAnotherFileIsLeftOutAndNeverSpliced() throws Exception {
    Content c = Content.random(4 << 20, 3);
    server.serve("/f.bin", c).etag("\"a\"");
    mirror.serve("/copy.bin", Content.random(4 << 20, 4)).etag("\"b\"");
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin")).connections(4)
        .mirrors(List.of(mirror.url("/copy.bin"))).build());
    DownloadResult r = await(d);
    assertEquals(c.sha256Hex(), sha256(r.file()));
    assertTrue(mirror.bodyBytesSent() <= 3 * (64 << 10), "only samples came from the mirror: "
        + mirror.bodyBytesSent());
    assertTrue(d.connectionChanges().stream().anyMatch(ch -> ch.reason().contains("left out")
        && ch.reason().contains("differ")), d.connectionChanges().toString());
  }

  @Test
  void aMirrorWithoutValidatorsIsJudgedByItsBytes() throws Exception {
    Content c = Content.random(4 << 20, 16);
    server.serve("/f.bin", c).etag("\"a\"");
    // the same length, no validators to compare, other bytes: it must not be trusted on its length
    mirror.serve("/other.bin", Content.random(4 << 20, 17));
    mirror.serve("/copy.bin", c);
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin")).connections(4)
        .mirrors(List.of(mirror.url("/other.bin"), mirror.url("/copy.bin"))).build());
    assertEquals(c.sha256Hex(), sha256(await(d).file()));
    assertTrue(d.connectionChanges().stream().anyMatch(ch -> ch.reason().contains("/other.bin left out")),
        d.connectionChanges().toString());
    assertTrue(d.connectionChanges().stream().noneMatch(ch -> ch.reason().contains("/copy.bin left out")),
        d.connectionChanges().toString());
  }

  @Test
  void aMirrorOfAnotherLengthIsLeftOut() throws Exception {
    Content c = Content.random(2 << 20, 12);
    server.serve("/f.bin", c).etag("\"same\"");
    mirror.serve("/copy.bin", Content.random((2 << 20) + 1, 12)).etag("\"same\"");
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin")).mirrors(List.of(mirror.url("/copy.bin"))).build());
    assertEquals(c.sha256Hex(), sha256(await(d).file()));
    assertTrue(d.connectionChanges().stream().anyMatch(ch -> ch.reason().contains("different file")),
        d.connectionChanges().toString());
  }

  @Test
  void aByteIdenticalMirrorWithOtherValidatorsIsUsedEvenWithAChecksum() throws Exception {
    Content c = Content.random(16 << 20, 13);
    server.serve("/f.bin", c).etag("\"inode-1\"").lastModified(Instant.parse("2026-01-02T03:04:05Z"))
        .rateLimitPerConnection(2 << 20);
    mirror.serve("/copy.bin", c).etag("\"other-server\"").lastModified(Instant.parse("2026-01-05T00:00:00Z"))
        .rateLimitPerConnection(2 << 20);
    DownloadResult r = get(request("/f.bin", dir.resolve("f.bin")).connections(4)
        .checksum(Checksum.parse("sha-256=" + c.sha256Hex())).mirrors(List.of(mirror.url("/copy.bin"))));
    assertEquals(c.sha256Hex(), sha256(r.file()));
    assertTrue(mirror.bodyBytesSent() > 2 << 20, "the mirror served only " + mirror.bodyBytesSent() + " bytes");
  }

  @Test
  void aMainUrlThatIsGoneAtTheStartFallsBackToTheMirror() throws Exception {
    Content c = Content.random(4 << 20, 14);
    server.respond("/f.bin", 404);
    mirror.serve("/copy.bin", c).etag("\"same\"");
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin")).mirrors(List.of(mirror.url("/copy.bin"))).build());
    assertEquals(c.sha256Hex(), sha256(await(d).file()));
    assertTrue(d.connectionChanges().stream().anyMatch(ch -> ch.reason().contains("404")), d.connectionChanges().toString());
  }

  @Test
  void aMainUrlThatRefusesConnectionsFallsBackToTheMirrors() throws Exception {
    Content c = Content.random(4 << 20, 15);
    TestServer dead = TestServer.start();
    String deadUrl = dead.url("/f.bin");
    dead.close();
    TestServer second = TestServer.start();
    try {
      mirror.serve("/copy.bin", c).etag("\"m1\"");
      second.serve("/copy.bin", c).etag("\"m2\"");
      DownloadResult r = get(DownloadRequest.builder(deadUrl).file(dir.resolve("f.bin")).connections(4)
          .mirrors(List.of(mirror.url("/copy.bin"), second.url("/copy.bin"))));
      assertEquals(c.sha256Hex(), sha256(r.file()));
    } finally {
      second.close();
    }
  }

  @Test
  void everyUrlDeadReportsTheMainUrlsError() throws Exception {
    server.respond("/f.bin", 404);
    mirror.respond("/copy.bin", 410);
    HttpStatusException e = assertThrows(HttpStatusException.class,
        () -> get(request("/f.bin", dir.resolve("f.bin")).mirrors(List.of(mirror.url("/copy.bin")))));
    assertEquals(404, e.status());
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
