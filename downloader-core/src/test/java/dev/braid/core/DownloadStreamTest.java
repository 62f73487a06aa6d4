package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.RequestRecord;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Issue 38: a download read in order (Braid.stream), over several connections, in bounded memory, leaving nothing behind. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DownloadStreamTest extends DownloadHarness {
  @Test
  void theBytesComeInOrderOverSeveralConnectionsAndNothingIsLeftBehind() throws Exception {
    Content c = Content.random(24L << 20, 5);
    server.serve("/f.bin", c).etag("\"v1\"").rateLimitPerConnection(16L << 20);
    String got;
    try (DownloadStream s = braid.stream(DownloadRequest.builder(server.url("/f.bin")).connections(4)
        .checksum(Checksum.parse("sha-256=" + c.sha256Hex())).build())) {
      got = sha256(s.inputStream());
    }
    assertEquals(c.sha256Hex(), got);
    assertTrue(connections() >= 3, "ranges came over " + connections() + " connections");
    assertTrue(braid.downloads().isEmpty(), "the store recorded " + braid.downloads());
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(List.of(), files.filter(p -> !p.getFileName().toString().startsWith("state.db")).toList());
    }
  }

  @Test
  void aSlowFirstConnectionHoldsTheOthersWithinTheWindowNotTheFileInMemory() throws Exception {
    // beyond the window: a download that ran free would hold most of it while byte 0 crawls
    Content c = Content.random(40L << 20, 6);
    server.serve("/f.bin", c).etag("\"v1\"").slowConnectionFromByteZero(8L << 20);
    try (DownloadStream s = braid.stream(DownloadRequest.builder(server.url("/f.bin")).connections(4).build())) {
      assertEquals(c.sha256Hex(), sha256(s.inputStream()));
      assertTrue(s.windowSize() <= 36 << 20, "a window of " + s.windowSize() + " bytes");
      assertTrue(s.windowPeak() <= s.windowSize(), "held " + s.windowPeak() + " bytes at once");
    }
    assertTrue(connections() >= 3, "ranges came over " + connections() + " connections");
  }

  @Test
  void aChecksumMismatchIsToldAfterTheLastByte() throws Exception {
    Content c = Content.random(3L << 20, 7);
    server.serve("/f.bin", c).etag("\"v1\"");
    String wrong = "sha-256=" + "0".repeat(64);
    long[] read = {0};
    try (DownloadStream s = braid.stream(DownloadRequest.builder(server.url("/f.bin")).checksum(Checksum.parse(wrong)).build());
        InputStream in = s.inputStream()) {
      byte[] buf = new byte[64 << 10];
      IOException e = assertThrows(IOException.class, () -> {
        for (int n; (n = in.read(buf)) >= 0; ) {
          read[0] += n;
        }
      });
      assertInstanceOf(IntegrityException.class, e.getCause(), e.toString());
    }
    assertEquals(c.size(), read[0]);
  }

  @Test
  void aDigestTheServerDeclaresIsCheckedOnTheStream() throws Exception {
    Content c = Content.random(2L << 20, 8);
    byte[] wrong = c.sha256();
    wrong[0] ^= 1;
    server.serve("/d.bin", c).etag("\"v1\"").header("Repr-Digest", "sha-256=:" + java.util.Base64.getEncoder().encodeToString(wrong) + ":");
    try (DownloadStream s = braid.stream(DownloadRequest.builder(server.url("/d.bin")).build()); InputStream in = s.inputStream()) {
      byte[] buf = new byte[64 << 10];
      IOException e = assertThrows(IOException.class, () -> {
        while (in.read(buf) >= 0) {
          // every byte goes out; the check is told at the end
        }
      });
      assertInstanceOf(IntegrityException.class, e.getCause(), e.toString());
      assertTrue(e.getMessage().contains("sha-256 digest (the server's Repr-Digest) mismatch"), e.getMessage());
    }
  }

  private long connections() {
    return server.requests().stream().filter(r -> r.range() != null).map(RequestRecord::connectionId).distinct().count();
  }

  private static String sha256(InputStream in) throws Exception {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    byte[] buf = new byte[256 << 10];
    for (int n; (n = in.read(buf)) >= 0; ) {
      md.update(buf, 0, n);
    }
    return HexFormat.of().formatHex(md.digest());
  }
}
