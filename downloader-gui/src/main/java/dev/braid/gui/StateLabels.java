package dev.braid.gui;

import dev.braid.store.DownloadState;
import java.util.Locale;

/** How the window shows a {@link DownloadState}: its words, its style class and which buttons it enables. */
final class StateLabels {
  private StateLabels() {}

  static String label(DownloadState s) {
    return switch (s) {
      case QUEUED -> "Queued";
      case ACTIVE -> "Downloading";
      case PAUSED -> "Paused";
      case COMPLETED -> "Completed";
      case FAILED -> "Failed";
    };
  }

  /** The CSS class of a cell or badge showing this state, e.g. {@code status-active}. */
  static String styleClass(DownloadState s) {
    return "status-" + s.name().toLowerCase(Locale.ROOT);
  }

  /** Whether the download has ended and will not move without a retry. */
  static boolean finished(DownloadState s) {
    return s == DownloadState.COMPLETED || s == DownloadState.FAILED;
  }

  static boolean canPause(DownloadState s) {
    return s == DownloadState.QUEUED || s == DownloadState.ACTIVE;
  }

  static boolean canResume(DownloadState s) {
    return s == DownloadState.PAUSED || s == DownloadState.FAILED;
  }
}
