package dev.braid.gui;

import dev.braid.store.DownloadState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** A daemon's download as the window shows it: one waiting out an outage says when it tries again and why. */
class DaemonSnapshotsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode status(String extra) throws Exception {
    return JSON.readTree("{\"gid\":\"0000000000000007\",\"status\":\"waiting\",\"totalLength\":\"100\",\"completedLength\":\"40\","
        + "\"downloadSpeed\":\"0\",\"connections\":\"0\",\"files\":[{\"path\":\"/d/f.bin\",\"uris\":[{\"uri\":\"http://h/f.bin\"}]}]"
        + extra + "}");
  }

  @Test
  void aWaitingDownloadShowsItsNextTryAndLastError() throws Exception {
    DownloadSnapshot s = DaemonSnapshots.of(status(",\"braidNextTry\":\"2026-12-05T12:00:30Z\","
        + "\"braidLastError\":\"Connect to http://h failed: Connection refused\""), false).orElseThrow();
    assertEquals(DownloadState.QUEUED, s.status());
    assertEquals(Snapshots.waiting(java.time.Instant.parse("2026-12-05T12:00:30Z"), "Connect to http://h failed: Connection refused"),
        s.error());
    assertTrue(s.error().startsWith("Waiting to retry at "), s.error());
    assertEquals(40, s.done(), "the bytes it keeps");
  }

  @Test
  void aPlainQueuedDownloadShowsNoError() throws Exception {
    DownloadSnapshot s = DaemonSnapshots.of(status(""), false).orElseThrow();
    assertEquals(DownloadState.QUEUED, s.status());
    assertNull(s.error());
  }
}
