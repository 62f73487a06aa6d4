package dev.braid.store;

/** Where a queue entry stands; {@code dev.braid.core.DownloadState} shows the same names to users. */
public enum EntryState {
  /** Waiting for a free slot (or interrupted by a crash while active, when its owner is gone). */
  QUEUED,
  /** Driven by the process named in {@link QueueEntry#owner()}. */
  ACTIVE,
  /** Stopped on request; kept until resumed or removed. */
  PAUSED,
  /** The file is complete, verified and under its final name. */
  COMPLETED,
  /** Ended with an error; the bytes already fetched are kept for a retry. */
  FAILED;

  /**
   * Whether nothing will happen to the entry until someone acts on it.
   *
   * @return true for paused, completed and failed
   */
  public boolean settled() {
    return this == PAUSED || this == COMPLETED || this == FAILED;
  }
}
