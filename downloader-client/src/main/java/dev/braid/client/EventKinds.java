package dev.braid.client;

import dev.braid.store.DownloadState;
import java.util.Optional;

/** The event a download's new state makes: none for a download that waits (aria2 announces no wait either). */
final class EventKinds {
  private EventKinds() {}

  static Optional<DownloadEvent.Kind> of(DownloadState state) {
    return switch (state) {
      case ACTIVE -> Optional.of(DownloadEvent.Kind.STARTED);
      case PAUSED -> Optional.of(DownloadEvent.Kind.PAUSED);
      case COMPLETED -> Optional.of(DownloadEvent.Kind.COMPLETED);
      case FAILED -> Optional.of(DownloadEvent.Kind.FAILED);
      case QUEUED -> Optional.empty();
    };
  }
}
