package dev.braid.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.testserver.Content;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** aria2's piece map of a download paused after a run in this process: what AriaNg's "Pieces" tab draws. */
class PausedPiecesTest extends RpcHarness {
  private static final long MIB = PieceMap.PIECE_LENGTH;

  private JsonNode status(String gid) throws Exception {
    return calls.call("aria2.tellStatus", gid);
  }

  private JsonNode awaitStatus(String gid, String wanted) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    JsonNode s = status(gid);
    while (!s.get("status").asText().equals(wanted)) {
      assertTrue(System.nanoTime() < deadline, "never " + wanted + ": " + s);
      Thread.sleep(20);
      s = status(gid);
    }
    return s;
  }

  @Test
  void aDownloadPausedAfterARunHereShowsThePiecesItHas() throws Exception {
    server.serve("/f.bin", Content.random(4 * MIB, 51)).etag("\"f\"").rateLimitPerConnection(MIB);
    String gid = calls.call("aria2.addUri", List.of(server.url("/f.bin")), Map.of("split", "1")).asText();
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (status(gid).get("completedLength").asLong() < 3 * MIB / 2) {
      assertTrue(System.nanoTime() < deadline, "no progress: " + status(gid));
      Thread.sleep(20);
    }
    calls.call("aria2.forcePause", gid);
    JsonNode s = awaitStatus(gid, "paused");
    long done = s.get("completedLength").asLong();
    assertTrue(done >= 3 * MIB / 2 && done < 4 * MIB, s::toString);
    // one connection from byte 0: the pieces wholly done are the first done / 1 MiB, high bit first
    int whole = (int) (done / MIB);
    String expected = String.format("%02x", (0xff << (8 - whole)) & 0xff);
    assertEquals(expected, s.path("bitfield").asText(), s::toString);
    assertEquals("4", s.path("numPieces").asText(), s::toString);
    assertEquals(Long.toString(MIB), s.path("pieceLength").asText(), s::toString);

    // after a restart the engine has not run it: no pieces known, as aria2 leaves them out
    restart();
    JsonNode after = status(gid);
    assertEquals("paused", after.get("status").asText(), after::toString);
    assertFalse(after.has("bitfield"), after::toString);
  }
}
