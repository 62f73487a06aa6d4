package dev.braid.client;

/**
 * Something that happened to a download, as {@link BraidClient#follow} tells it. The kinds are
 * aria2's notifications, so a daemon's are passed on one for one.
 *
 * @param id the download's id
 * @param kind what happened
 */
public record DownloadEvent(long id, Kind kind) {
  /** What happened. */
  public enum Kind {
    /** It started (or resumed) fetching. */
    STARTED,
    /** It was paused. */
    PAUSED,
    /** It was removed from the queue (or cancelled). */
    REMOVED,
    /** It completed: the file is verified and under its final name. */
    COMPLETED,
    /** It failed; {@link DownloadView#failure()} says why. */
    FAILED
  }

  /**
   * Checks its arguments.
   *
   * @param id the download's id
   * @param kind what happened
   */
  public DownloadEvent {
    if (kind == null) {
      throw new IllegalArgumentException("an event needs a kind");
    }
  }
}
