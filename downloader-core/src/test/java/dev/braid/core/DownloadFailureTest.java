package dev.braid.core;

import dev.braid.store.DownloadState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.braid.testserver.Content;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * A failed download's kind and detail ({@link Download#failure()}): what the run saw, and the same
 * read back from the state database by an engine opened again on it, for failures a real server
 * and a real folder cause; rows an older Braid wrote (the class name alone) still read.
 */
class DownloadFailureTest extends DownloadHarness {
  @Test
  void aNotFoundKeepsItsStatusAcrossARestart() throws Exception {
    server.respond("/gone", 404);
    Download d = braid.submit(request("/gone", dir.resolve("gone.bin")).build());
    assertEquals(404, assertThrows(HttpStatusException.class, () -> await(d)).status());
    DownloadFailure seen = new DownloadFailure(FailureKind.HTTP_STATUS, FailureDetail.NONE, 404);
    assertEquals(seen, d.failure().orElseThrow());
    assertEquals(seen, reopened(d.id()).failure().orElseThrow(), "read back from the state database");
  }

  @Test
  void aChecksumMismatchIsAnIntegrityFailureOfTheChecksumAcrossARestart() throws Exception {
    server.serve("/file", Content.random(100_000, 3));
    Checksum wrong = Checksum.parse("sha-256=" + HexFormat.of().formatHex(new byte[32]));
    Download d = braid.submit(request("/file", dir.resolve("file.bin")).checksum(wrong).build());
    assertThrows(IntegrityException.class, () -> await(d));
    DownloadFailure seen = new DownloadFailure(FailureKind.INTEGRITY, FailureDetail.CHECKSUM, 0);
    assertEquals(seen, d.failure().orElseThrow());
    assertEquals(seen, reopened(d.id()).failure().orElseThrow());
  }

  @Test
  void aRefusedConnectionIsANetworkFailure() throws Exception {
    Download d = braid.submit(DownloadRequest.builder("http://127.0.0.1:" + closedPort() + "/x").file(dir.resolve("x"))
        .build());
    assertThrows(NetworkException.class, () -> await(d));
    DownloadFailure seen = new DownloadFailure(FailureKind.NETWORK, FailureDetail.NONE, 0);
    assertEquals(seen, d.failure().orElseThrow());
    assertEquals(seen, reopened(d.id()).failure().orElseThrow());
  }

  @Test
  void aServerThatStopsSendingIsANetworkTimeoutAcrossARestart() throws Exception {
    braid.close();
    braid = Braid.builder().stateDatabase(dir.resolve("state.db")).readTimeout(Duration.ofMillis(300))
        .firstByteTimeout(Duration.ofMillis(300)).maxRetries(1).firstBackoff(Duration.ofMillis(20)).build();
    server.serve("/stall", Content.random(100_000, 5)).stallAfter(0, Duration.ofSeconds(5), 100);
    Download d = braid.submit(request("/stall", dir.resolve("stall.bin")).maxConnections(1).build());
    assertThrows(NetworkException.class, () -> await(d));
    DownloadFailure seen = new DownloadFailure(FailureKind.NETWORK, FailureDetail.TIMEOUT, 0);
    assertEquals(seen, d.failure().orElseThrow(), () -> d.error().orElse(""));
    assertEquals(seen, reopened(d.id()).failure().orElseThrow());
  }

  @Test
  void anExistingFileIsALocalFailureOfAnExistingFile() throws Exception {
    server.serve("/here", Content.random(1_000, 4));
    Files.writeString(dir.resolve("here.bin"), "mine");
    Download d = braid.submit(request("/here", dir.resolve("here.bin")).build());
    assertThrows(LocalFileException.class, () -> await(d));
    assertEquals(new DownloadFailure(FailureKind.LOCAL_IO, FailureDetail.FILE_EXISTS, 0),
        reopened(d.id()).failure().orElseThrow());
    assertEquals("mine", Files.readString(dir.resolve("here.bin")), "the file that was there is kept");
  }

  @Test
  void rowsWithTheClassNameAloneOrAnUnknownNameStillRead() throws Exception {
    server.respond("/gone", 404);
    Download d = braid.submit(request("/gone", dir.resolve("gone.bin")).build());
    assertThrows(HttpStatusException.class, () -> await(d));
    braid.close();
    storeKind(d.id(), "HttpStatusException");
    assertEquals(new DownloadFailure(FailureKind.HTTP_STATUS, FailureDetail.NONE, 0), reopened(d.id()).failure().orElseThrow());
    braid.close();
    storeKind(d.id(), "IntegrityException:a-detail-of-a-newer-braid");
    assertEquals(new DownloadFailure(FailureKind.INTEGRITY, FailureDetail.NONE, 0), reopened(d.id()).failure().orElseThrow());
    braid.close();
    storeKind(d.id(), "IllegalStateException");
    assertEquals(FailureKind.INTERNAL, reopened(d.id()).failure().orElseThrow().kind());
    braid.close();
    storeKind(d.id(), null);
    assertEquals(FailureKind.INTERNAL, reopened(d.id()).failure().orElseThrow().kind());
  }

  /** The download {@code id} as a new engine on the same state database reads it. */
  private Download reopened(long id) throws LocalFileException {
    braid.close();
    braid = newBraid();
    Download d = braid.download(id).orElseThrow();
    assertEquals(DownloadState.FAILED, d.state());
    return d;
  }

  private void storeKind(long id, String kind) throws Exception {
    try (Connection store = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("state.db"));
        PreparedStatement s = store.prepareStatement("UPDATE queue SET error_kind = ? WHERE id = ?")) {
      s.setString(1, kind);
      s.setLong(2, id);
      assertEquals(1, s.executeUpdate());
    }
  }

  /** A loopback port nothing listens on: one the system just gave and that was closed again. */
  private static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
