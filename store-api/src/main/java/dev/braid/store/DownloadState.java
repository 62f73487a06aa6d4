package dev.braid.store;

/**
 * Where a download stands: the one state of a queue entry, of a stored download record, of the
 * public {@code Download} handle and of what every face shows. It lives in the store's API, the
 * lowest module, so that the store and the engine above it name states with the same type.
 */
public enum DownloadState {
  /** Waiting for a free slot (or interrupted by a crash while active, when its owner is gone). */
  QUEUED,
  /**
   * Being fetched by the process named in {@link QueueEntry#owner()} (or, for a download record,
   * interrupted while being fetched: resumable).
   */
  ACTIVE,
  /** Stopped on request; resumed from the bytes on disk. */
  PAUSED,
  /** Complete, verified, and under its final name. */
  COMPLETED,
  /** Ended with an error; the bytes already fetched are kept for a retry. */
  FAILED;

  /**
   * Whether nothing will happen to the download until someone acts on it.
   *
   * @return true for paused, completed and failed
   */
  public boolean settled() {
    return this == PAUSED || this == COMPLETED || this == FAILED;
  }
}
