package dev.braid.client;

import dev.braid.core.ConnectionChange;
import dev.braid.core.Download;
import java.util.List;

/** A download handle of the engine in this process as the port's value. */
final class LocalViews {
  private LocalViews() {}

  static DownloadView of(Download d) {
    List<ConnectionChange> changes = d.connectionChanges();
    return new DownloadView(d.id(), d.url(), d.name(), d.file().orElse(null), d.directory(), d.state(), d.progress(),
        d.mirrors(), d.checksum().orElse(null), d.priority(), d.error().orElse(null), d.failure().orElse(null),
        d.outageWait().orElse(null), d.remote().orElse(null), d.metrics(),
        changes.isEmpty() ? null : changes.get(changes.size() - 1));
  }
}
