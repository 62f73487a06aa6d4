package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.RequestRecord;
import dev.braid.testserver.TestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a server advertises in its response head (RFC 9530 digests, RFC 3230 {@code Digest},
 * RFC 6249 {@code Link} duplicates and a describing Metalink), served by the test server right
 * and wrong: a digest is verified before the rename, an advertised mirror is checked as any
 * mirror, a Metalink's pieces catch a corrupt server piece by piece.
 */
class ServerAdvertisedTest extends DownloadHarness {
  private static final int PIECE = 256 << 10;
  TestServer mirror;

  @BeforeEach
  void startMirror() throws Exception {
    mirror = TestServer.start();
  }

  @AfterEach
  void stopMirror() {
    mirror.close();
  }

  private static String sf(byte[] digest) {
    return ":" + Base64.getEncoder().encodeToString(digest) + ":";
  }

  private static byte[] wrong(Content c) {
    byte[] d = c.sha256();
    d[0] ^= 1;
    return d;
  }

  private static boolean noted(Download d, String text) {
    return d.notes().stream().anyMatch(n -> n.message().contains(text));
  }

  /** Whether {@code server} answered a range beyond a one-byte check with 206: ranges of the download itself. */
  private static long rangesServed(TestServer server, String path) {
    Predicate<RequestRecord> real = q -> q.path().equals(path) && q.status() == 206 && q.range() != null
        && !q.range().matches("bytes=(\\d+)-\\1");
    return server.requests().stream().filter(real).count();
  }

  @Test
  void aRightReprDigestIsCheckedAndSaidSo() throws Exception {
    Content c = Content.random(3 << 20, 1);
    server.serve("/f.bin", c).header("Repr-Digest", "sha-256=" + sf(c.sha256()));
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin")).connections(4).build());
    assertEquals(c.sha256Hex(), sha256(await(d).file()));
    assertTrue(noted(d, "the file matches the server's Repr-Digest sha-256"), d.notes().toString());
    // RFC 9530 section 4: the probe asks for it
    assertEquals("sha-256=10, sha-512=5", server.requests().get(0).header("Want-Repr-Digest"));
  }

  @Test
  void aWrongReprDigestFailsTheDownloadAndKeepsThePartFile() throws Exception {
    Content c = Content.random(3 << 20, 2);
    server.serve("/f.bin", c).header("Repr-Digest", "sha-256=" + sf(wrong(c)));
    Path out = dir.resolve("f.bin");
    IntegrityException e = assertThrows(IntegrityException.class,
        () -> get(request("/f.bin", out).connections(4)));
    assertEquals(FailureDetail.CHECKSUM, e.givenDetail());
    assertTrue(e.getMessage().contains("sha-256 digest (the server's Repr-Digest) mismatch"), e.getMessage());
    assertFalse(Files.exists(out));
    assertEquals(c.sha256Hex(), sha256(dir.resolve("f.bin.part")), "the bytes are kept as they came");
  }

  @Test
  void aWrongRfc3230DigestFailsToo() throws Exception {
    Content c = Content.random(1 << 20, 3);
    byte[] sha512 = java.security.MessageDigest.getInstance("SHA-512").digest(bytes(c));
    sha512[5] ^= 1;
    server.serve("/f.bin", c).header("Digest", "SHA-512=" + Base64.getEncoder().encodeToString(sha512));
    IntegrityException e = assertThrows(IntegrityException.class, () -> get(request("/f.bin", dir.resolve("f.bin"))));
    assertTrue(e.getMessage().contains("sha-512 digest (the server's Digest) mismatch"), e.getMessage());
  }

  @Test
  void theRequestsChecksumWinsOverAWrongServerDigest() throws Exception {
    Content c = Content.random(1 << 20, 4);
    server.serve("/f.bin", c).header("Repr-Digest", "sha-256=" + sf(wrong(c)));
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin"))
        .checksum(Checksum.parse("sha-256=" + c.sha256Hex())).build());
    assertEquals(c.sha256Hex(), sha256(await(d).file()));
    assertTrue(noted(d, "Repr-Digest sha-256 was not used: the request's checksum wins"), d.notes().toString());
  }

  @Test
  void aContentDigestOfA206IsNotTakenForTheWholeFilesButThatOfA200OrAWhole206Is() throws Exception {
    // longer than the probe's range: each response's own Content-Digest, the probe's covering its range only
    Content c = Content.random(6 << 20, 5);
    server.serve("/ranged.bin", c).contentDigest(true);
    Download ranged = braid.submit(request("/ranged.bin", dir.resolve("ranged.bin")).connections(4).build());
    assertEquals(c.sha256Hex(), sha256(await(ranged).file()));
    assertTrue(noted(ranged, "Content-Digest was not used: it covers only this response's bytes (bytes 0-"),
        ranged.notes().toString());
    server.serve("/whole.bin", c).contentDigest(true).ignoreRange(true);
    Download whole = braid.submit(request("/whole.bin", dir.resolve("whole.bin")).build());
    assertEquals(c.sha256Hex(), sha256(await(whole).file()));
    assertTrue(noted(whole, "the file matches the server's Content-Digest sha-256"), whole.notes().toString());
    // a file within the probe's range: its 206 is the whole file
    Content small = Content.random(1 << 20, 11);
    server.serve("/small.bin", small).contentDigest(true);
    Download all = braid.submit(request("/small.bin", dir.resolve("small.bin")).build());
    assertEquals(small.sha256Hex(), sha256(await(all).file()));
    assertTrue(noted(all, "the file matches the server's Content-Digest sha-256"), all.notes().toString());
  }

  @Test
  void aWrongDigestIsCaughtOnTheResumeAfterAPause() throws Exception {
    Content c = Content.random(4 << 20, 6);
    server.serve("/f.bin", c).rateLimitPerConnection(2 << 20).header("Repr-Digest", "sha-256=" + sf(wrong(c)));
    Path out = dir.resolve("f.bin");
    pausedAt("/f.bin", out, 1 << 20);
    server.clearRequests();
    IntegrityException e = assertThrows(IntegrityException.class, () -> get(request("/f.bin", out).connections(4)));
    assertTrue(e.getMessage().contains("Repr-Digest"), e.getMessage());
    assertTrue(server.requests().get(0).range() != null && !server.requests().get(0).range().startsWith("bytes=0-"),
        "the second pass resumed: " + server.requests().get(0).range());
    assertTrue(Files.exists(dir.resolve("f.bin.part")));
  }

  @Test
  void aMirrorNamedOnlyInALinkHeaderCarriesRanges() throws Exception {
    Content c = Content.random(8 << 20, 7);
    mirror.serve("/copy.bin", c).etag("\"same\"").rateLimitPerConnection(4 << 20);
    server.serve("/f.bin", c).etag("\"same\"").rateLimitPerConnection(4 << 20)
        .header("Link", "<" + mirror.url("/copy.bin") + ">; rel=duplicate; pri=1; geo=de");
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin")).connections(4).build());
    assertEquals(c.sha256Hex(), sha256(await(d).file()));
    assertTrue(rangesServed(mirror, "/copy.bin") > 0, "the mirror served no range: " + mirror.requests());
    assertTrue(mirror.bodyBytesSent() > 1 << 20, "the mirror served only " + mirror.bodyBytesSent() + " bytes");
  }

  @Test
  void aLinkMirrorServingOtherBytesIsLeftOutAndTheDownloadCompletes() throws Exception {
    Content c = Content.random(4 << 20, 8);
    mirror.serve("/other.bin", Content.random(4 << 20, 9)).etag("\"b\"");
    server.serve("/f.bin", c).etag("\"a\"").header("Link", "<" + mirror.url("/other.bin") + ">; rel=duplicate")
        .header("Link", "<ftp://" + "127.0.0.1/f.bin>; rel=duplicate");
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin")).connections(4).build());
    assertEquals(c.sha256Hex(), sha256(await(d).file()));
    assertTrue(noted(d, "mirror " + mirror.url("/other.bin") + " left out"), d.notes().toString());
    assertTrue(noted(d, "ftp://127.0.0.1/f.bin was ignored: only http and https"), d.notes().toString());
    // its one-byte check and a sample to compare (SameBytes), no range of the download
    assertTrue(mirror.bodyBytesSent() <= 3 * (64 << 10), "bytes of the other file were fetched: " + mirror.requests());
  }

  @Test
  void aDescribingMetalinksPiecesCatchACorruptServerPieceByPiece() throws Exception {
    Content c = Content.random(4 << 20, 10);
    mirror.serve("/copy.bin", c).etag("\"same\"").rateLimitPerConnection(4 << 20);
    PieceHashes pieces = PieceHashesTest.pieces(c, PIECE);
    String doc = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\">\n"
        + "<file name=\"f.bin\"><size>" + c.size() + "</size><hash type=\"sha-256\">" + c.sha256Hex() + "</hash>"
        + "<pieces length=\"" + PIECE + "\" type=\"sha-256\"><hash>" + String.join("</hash><hash>", pieces.hashes())
        + "</hash></pieces><url priority=\"1\">" + mirror.url("/copy.bin") + "</url></file></metalink>\n";
    server.serve("/f.meta4", Content.of(doc.getBytes(StandardCharsets.UTF_8)));
    server.serve("/f.bin", c).etag("\"same\"").rateLimitPerConnection(4 << 20).corruptBytes(2 * PIECE + 7, 2 * PIECE + 8)
        .header("Link", "</f.meta4>; rel=describedby; type=\"application/metalink4+xml\"");
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin")).connections(4).build());
    assertEquals(c.sha256Hex(), sha256(await(d).file()));
    assertTrue(noted(d, "piece hashes from the advertised Metalink: 16 sha-256 pieces"), d.notes().toString());
    assertTrue(noted(d, "piece 2 (bytes " + 2 * PIECE + "-"), "the corrupt piece was not caught: " + d.notes());
    assertTrue(noted(d, "the file matches the server's Metalink sha-256"), d.notes().toString());
    assertTrue(mirror.requests().stream().anyMatch(q -> q.path().equals("/copy.bin")), "the Metalink's mirror was not checked");
  }

  private static byte[] bytes(Content c) {
    byte[] all = new byte[(int) c.size()];
    c.read(0, all, 0, all.length);
    return all;
  }
}
