package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.braid.client.DownloadView;
import dev.braid.core.DownloadFailure;
import dev.braid.core.FailureDetail;
import dev.braid.core.FailureKind;
import dev.braid.core.Progress;
import dev.braid.store.DownloadState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A download a client reports ended exits with the code of its failure's kind, wherever it ran: every kind. */
class ClientExitCodeTest {
  @Test
  void everyKindExitsWithItsDocumentedCode() {
    Map<FailureKind, Integer> documented = Map.ofEntries(Map.entry(FailureKind.USAGE, 2), Map.entry(FailureKind.NETWORK, 3),
        Map.entry(FailureKind.HTTP_STATUS, 4), Map.entry(FailureKind.REMOTE_CHANGED, 5), Map.entry(FailureKind.LOCAL_IO, 6),
        Map.entry(FailureKind.INTEGRITY, 7), Map.entry(FailureKind.REMOVED, 8), Map.entry(FailureKind.LINK_REFUSED, 10),
        Map.entry(FailureKind.METALINK, 11), Map.entry(FailureKind.INTERNAL, 1));
    assertEquals(FailureKind.values().length, documented.size(), "every kind has its code");
    documented.forEach((kind, code) -> assertEquals(code,
        ClientFollow.exitCode(view(DownloadState.FAILED, new DownloadFailure(kind, FailureDetail.NONE, 0))), kind.id()));
    assertEquals(ExitCode.INTERNAL, ClientFollow.exitCode(view(DownloadState.FAILED, null)), "a failure of no known kind");
    assertEquals(ExitCode.OK, ClientFollow.exitCode(view(DownloadState.COMPLETED, null)));
    assertEquals(ExitCode.INTERRUPTED, ClientFollow.exitCode(view(DownloadState.PAUSED, null)));
  }

  private static DownloadView view(DownloadState state, DownloadFailure failure) {
    return new DownloadView(1, "http://127.0.0.1/f", "f", null, Path.of("/tmp"), state,
        new Progress(10, 5, 0, 0, Duration.ZERO, List.of()), List.of(), null, 0, failure == null ? null : "failed", failure,
        null, null, null, null, dev.braid.core.TransferMetrics.NONE, List.of(), List.of(), null);
  }
}
