package dev.braid.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.braid.client.DownloadView;
import dev.braid.core.DownloadFailure;
import dev.braid.core.OutageWait;
import dev.braid.core.Progress;
import dev.braid.store.DownloadState;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A download of the port as the window shows it: one waiting out an outage says when it tries again and why. */
class SnapshotsTest {
  private static DownloadView queued(OutageWait wait) {
    return new DownloadView(7, "http://h/f.bin", "f.bin", Path.of("/d/f.bin"), Path.of("/d"), DownloadState.QUEUED,
        new Progress(100, 40, 0, 0, Duration.ZERO, List.of()), List.of(), null, 0, null, null, wait, null);
  }

  @Test
  void aWaitingDownloadShowsItsNextTryAndLastError() {
    Instant next = Instant.parse("2026-12-05T12:00:30Z");
    String error = "Connect to http://h failed: Connection refused";
    DownloadSnapshot s = Snapshots.of(queued(new OutageWait(next, 2, next.minusSeconds(60), error,
        DownloadFailure.of(new java.net.ConnectException(error)))), false);
    assertEquals(DownloadState.QUEUED, s.status());
    assertEquals(Snapshots.waiting(next, error), s.error());
    assertEquals(40, s.done(), "the bytes it keeps");
  }

  @Test
  void aPlainQueuedDownloadShowsNoError() {
    DownloadSnapshot s = Snapshots.of(queued(null), false);
    assertEquals(DownloadState.QUEUED, s.status());
    assertNull(s.error());
  }
}
