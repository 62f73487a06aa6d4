package dev.braid.client;

import dev.braid.core.Download;
import dev.braid.core.DownloadFailure;
import dev.braid.core.DownloadResult;
import dev.braid.core.FailureDetail;
import dev.braid.core.FailureKind;
import dev.braid.store.DownloadState;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;

/** A handle of the engine's download as the port's value: for the in-process client, and for the daemon's answers. */
public final class DownloadViews {
  private DownloadViews() {}

  /**
   * {@return the download as it stands}
   *
   * @param d the engine's handle
   */
  public static DownloadView of(Download d) {
    return new DownloadView(d.id(), d.url(), d.name(), d.file().orElse(null), d.directory(), d.state(), d.progress(),
        d.mirrors(), d.checksum().orElse(null), d.priority(), d.error().orElse(null), failure(d),
        d.outageWait().orElse(null), d.remote().orElse(null), result(d), d.restartReason().orElse(null), d.metrics(),
        d.connectionChanges(), d.notes(), cause(d));
  }

  /** The completing run's result, read only once it is there: a view never waits for a download. */
  private static DownloadResult result(Download d) {
    return d.state() == DownloadState.COMPLETED && d.result().isDone() && !d.result().isCompletedExceptionally()
        ? d.result().join() : null;
  }

  /** The exception a failed run of this engine ended with, once it is there; null otherwise. */
  private static Throwable cause(Download d) {
    if (d.state() != DownloadState.FAILED || !d.result().isCompletedExceptionally()) {
      return null;
    }
    try {
      d.result().join();
      return null;
    } catch (CompletionException | CancellationException e) {
      return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    }
  }

  /** A failed download recorded without a kind failed for an internal reason: the faces' exit codes follow the kind. */
  private static DownloadFailure failure(Download d) {
    return d.failure().orElse(d.state() == DownloadState.FAILED ? new DownloadFailure(FailureKind.INTERNAL, FailureDetail.NONE, 0) : null);
  }
}
