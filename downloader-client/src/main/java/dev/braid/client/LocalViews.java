package dev.braid.client;

import dev.braid.core.Download;
import dev.braid.core.DownloadResult;
import dev.braid.store.DownloadState;

/** A download handle of the engine in this process as the port's value. */
final class LocalViews {
  private LocalViews() {}

  static DownloadView of(Download d) {
    return new DownloadView(d.id(), d.url(), d.name(), d.file().orElse(null), d.directory(), d.state(), d.progress(),
        d.mirrors(), d.checksum().orElse(null), d.priority(), d.error().orElse(null), d.failure().orElse(null),
        d.outageWait().orElse(null), d.remote().orElse(null), result(d), d.restartReason().orElse(null));
  }

  /** The completing run's result, read only once it is there: a view never waits for a download. */
  private static DownloadResult result(Download d) {
    return d.state() == DownloadState.COMPLETED && d.result().isDone() && !d.result().isCompletedExceptionally()
        ? d.result().join() : null;
  }
}
