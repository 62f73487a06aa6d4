package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.RequestRecord;
import dev.braid.testserver.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Piece hashes (a Metalink's pieces) checked as pieces complete, against real servers that serve
 * corrupt bytes ({@code Resource.corruptBytes}): a bad piece is fetched again, from another mirror
 * when there is one; a piece that keeps failing ends the download with the good pieces kept.
 */
class PieceHashesTest extends DownloadHarness {
  private static final int PIECE = 256 << 10;
  private static final Pattern BAD = Pattern.compile("piece (\\d+) \\(bytes (\\d+)-(\\d+)\\) failed");
  private static final Pattern RANGE = Pattern.compile("bytes=(\\d+)-(\\d+)");
  TestServer mirror;

  @BeforeEach
  void startMirror() throws Exception {
    mirror = TestServer.start();
  }

  @AfterEach
  void stopMirror() {
    mirror.close();
  }

  static PieceHashes pieces(Content c, int pieceLength) throws Exception {
    byte[] all = new byte[(int) c.size()];
    c.read(0, all, 0, all.length);
    List<String> hashes = new ArrayList<>();
    for (int at = 0; at < all.length; at += pieceLength) {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(all, at, Math.min(pieceLength, all.length - at));
      hashes.add(HexFormat.of().formatHex(md.digest()));
    }
    return new PieceHashes("sha-256", pieceLength, hashes);
  }

  /** One corrupt byte in every MiB of the mirror's copy: every request it serves holds one. */
  private static void corruptEveryMiB(dev.braid.testserver.Resource r, long size) {
    for (long at = 1000; at < size; at += 1 << 20) {
      r.corruptBytes(at, at + 1);
    }
  }

  @Test
  void badPiecesFromACorruptMirrorAreFetchedAgainFromTheGoodOne() throws Exception {
    Content c = Content.random(8 << 20, 41);
    server.serve("/f.bin", c).etag("\"same\"").rateLimitPerConnection(3 << 20);
    corruptEveryMiB(mirror.serve("/copy.bin", c).etag("\"same\"").rateLimitPerConnection(3 << 20), c.size());
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin")).connections(4).expectedLength(c.size())
        .pieceHashes(pieces(c, PIECE)).mirrors(List.of(mirror.url("/copy.bin"))).build());
    DownloadResult r = await(d);
    assertEquals(c.sha256Hex(), sha256(r.file()));
    assertTrue(mirror.bodyBytesSent() > 0, "the mirror served nothing: the test proves nothing");
    List<long[]> bad = new ArrayList<>();
    for (DownloadNote n : d.notes()) {
      Matcher m = BAD.matcher(n.message());
      if (m.find()) {
        bad.add(new long[] {Long.parseLong(m.group(2)), Long.parseLong(m.group(3))});
      }
    }
    assertFalse(bad.isEmpty(), "no bad piece noted: " + d.notes());
    // the mirror's bad pieces are blamed on it; on a loaded machine its connections may also fail
    // and drop it first, and then the blame comes as "(already left out) had served"
    assertTrue(d.notes().stream().anyMatch(n -> n.message().contains("/copy.bin served a piece that failed")
        || n.message().contains("/copy.bin left out") || n.message().contains("/copy.bin (already left out) had served")),
        d.notes().toString());
    // every bad piece came again from the good server, after the mirror had served it
    for (long[] piece : bad) {
      assertTrue(server.requests().stream().anyMatch(q -> covers(q, piece)),
          "bytes " + piece[0] + "-" + piece[1] + " were not fetched from the good server: " + ranges(server));
    }
    assertTrue(r.bytesFetched() > c.size(), "the bad pieces were fetched twice: " + r.bytesFetched());
  }

  @Test
  void aBadPieceCheckedWhileItsRequestStillRunsIsBlamedOnItsServer() throws Exception {
    // one connection, one 4 MiB request at 1 MiB/s: the first checkpoints check piece 0 while that
    // request still streams; the piece is blamed on the server that is sending it, so its one
    // refetch comes from the good mirror (blamed on no one, it came from the bad server again)
    Content c = Content.random(4 << 20, 43);
    server.serve("/f.bin", c).etag("\"same\"").rateLimitPerConnection(1 << 20).corruptBytes(1000, 1001);
    mirror.serve("/copy.bin", c).etag("\"same\"");
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin")).connections(1).expectedLength(c.size())
        .pieceHashes(pieces(c, PIECE)).mirrors(List.of(mirror.url("/copy.bin"))).build());
    DownloadResult r = await(d);
    assertEquals(c.sha256Hex(), sha256(r.file()));
    List<String> notes = d.notes().stream().map(DownloadNote::message).toList();
    assertEquals(1, notes.stream().filter(n -> n.startsWith("piece 0 (bytes 0-262143) failed")).count(), notes::toString);
    assertTrue(notes.stream().anyMatch(n -> n.contains("/f.bin served a piece that failed its hash")), notes::toString);
  }

  @Test
  void aPieceThatKeepsFailingOnTheOnlyUrlFailsWithTheGoodPiecesKept() throws Exception {
    Content c = Content.random(4 << 20, 42);
    var res = server.serve("/f.bin", c).etag("\"one\"");
    res.corruptBytes(3 * PIECE + 10, 3 * PIECE + 11);
    Path file = dir.resolve("f.bin");
    Download d = braid.submit(request("/f.bin", file).connections(2).pieceHashes(pieces(c, PIECE)).build());
    IntegrityException e = assertThrows(IntegrityException.class, () -> await(d));
    assertTrue(e.getMessage().contains("piece 3 ") && e.getMessage().contains("3 times"), e.getMessage());
    assertFalse(Files.exists(file));
    assertTrue(Files.exists(dir.resolve("f.bin.part")));
    // the server is fixed: a resume fetches only what was not good
    res.noCorruption();
    long served = server.bodyBytesSent();
    DownloadResult r = get(request("/f.bin", file).connections(2).pieceHashes(pieces(c, PIECE)));
    assertEquals(c.sha256Hex(), sha256(r.file()));
    assertTrue(r.bytesReused() >= c.size() - 2 * PIECE, "the good pieces were not kept: reused " + r.bytesReused());
    assertTrue(server.bodyBytesSent() - served < c.size() / 2, "the resume fetched " + (server.bodyBytesSent() - served));
  }

  @Test
  void aPausedDownloadWithPiecesResumesAndRechecksWhatIsOnDisk() throws Exception {
    Content c = Content.random(8 << 20, 43);
    server.serve("/f.bin", c).etag("\"p\"").rateLimitPerConnection(2 << 20);
    Path file = dir.resolve("f.bin");
    Download d = braid.submit(request("/f.bin", file).connections(2).pieceHashes(pieces(c, PIECE)).build());
    awaitProgress(d, 2 << 20);
    d.pause();
    assertThrows(DownloadPausedException.class, () -> await(d));
    // bytes damaged on disk while paused, inside a piece, are caught on resume
    try (var ch = java.nio.channels.FileChannel.open(dir.resolve("f.bin.part"), java.nio.file.StandardOpenOption.WRITE)) {
      ch.write(java.nio.ByteBuffer.wrap(new byte[] {1, 2, 3}), 5000);
    }
    DownloadResult r = get(request("/f.bin", file).connections(2).pieceHashes(pieces(c, PIECE)));
    assertEquals(c.sha256Hex(), sha256(r.file()));
  }

  @Test
  void piecesAndSizeSurviveTheQueueAcrossARestart() throws Exception {
    Content c = Content.random(1 << 20, 47);
    server.serve("/f.bin", c).etag("\"q\"").corruptBytes(PIECE + 5, PIECE + 6);
    Download queued = braid.submitPaused(request("/f.bin", dir.resolve("f.bin")).pieceHashes(pieces(c, PIECE))
        .expectedLength(c.size()).build());
    long id = queued.id();
    braid.close();
    braid = newBraid();
    Download again = braid.download(id).orElseThrow();
    again.resume();
    // only the stored piece hashes can tell the corrupt piece
    IntegrityException e = assertThrows(IntegrityException.class, () -> await(again));
    assertTrue(e.getMessage().contains("piece 1 "), e.getMessage());
  }

  @Test
  void aUrlServingAnotherLengthThanExpectedIsPassedOver() throws Exception {
    Content c = Content.random(2 << 20, 44);
    server.serve("/f.bin", Content.random(3 << 20, 45)).etag("\"x\"");
    mirror.serve("/copy.bin", c).etag("\"y\"");
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin")).expectedLength(c.size())
        .pieceHashes(pieces(c, PIECE)).mirrors(List.of(mirror.url("/copy.bin"))).build());
    assertEquals(c.sha256Hex(), sha256(await(d).file()));
    assertTrue(d.notes().stream().anyMatch(n -> n.message().contains("serves 3145728 bytes where 2097152")),
        d.notes().toString());
  }

  @Test
  void piecesThatDoNotCoverTheLengthAreRefused() throws Exception {
    Content c = Content.random(1 << 20, 46);
    InvalidRequestException e = assertThrows(InvalidRequestException.class,
        () -> request("/f.bin", dir.resolve("f.bin")).expectedLength(c.size() + PIECE).pieceHashes(pieces(c, PIECE)).build());
    assertTrue(e.getMessage().contains("do not cover"), e.getMessage());
  }

  private static boolean covers(RequestRecord q, long[] piece) {
    if (q.range() == null) {
      return false;
    }
    Matcher m = RANGE.matcher(q.range());
    return m.find() && Long.parseLong(m.group(1)) <= piece[0] && Long.parseLong(m.group(2)) >= piece[1];
  }

  private static List<String> ranges(TestServer s) {
    return s.requests().stream().map(RequestRecord::range).toList();
  }
}
