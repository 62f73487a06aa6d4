package dev.braid.core;

/** Where a download in the queue stands. */
public enum DownloadState {
  /** Waiting for a free slot (the queue's active limit), or submitted and about to start. */
  QUEUED,
  /** Being fetched, by this process or another one sharing the state database. */
  ACTIVE,
  /** Stopped on request; {@link Download#resume()} continues it from the bytes on disk. */
  PAUSED,
  /** Complete, verified, and under its final name. */
  COMPLETED,
  /** Ended with an error ({@link Download#error()}); the bytes already fetched are kept for a retry. */
  FAILED;

  /** {@return whether the download will not move until someone acts on it} */
  public boolean settled() {
    return this == PAUSED || this == COMPLETED || this == FAILED;
  }
}
