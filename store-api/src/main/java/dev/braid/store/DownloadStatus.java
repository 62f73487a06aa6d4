package dev.braid.store;

/** Where a stored download stands. */
public enum DownloadStatus {
  /** Being fetched, or interrupted (crash, kill) while being fetched: resumable. */
  ACTIVE,
  /** Stopped on request; resumable. */
  PAUSED,
  /** Ended with an error; the bytes recorded as done are still valid and resumable. */
  FAILED,
  /** Fully written, verified and renamed to its final name. */
  COMPLETED
}
