package dev.braid.store;

/**
 * Where a queue entry stands in waiting out an outage: a run failed for a passing reason and the
 * entry, still {@link DownloadState#QUEUED}, runs again no earlier than {@link #atMillis}. Kept with
 * the entry so that a restarted process goes on waiting (and counting) instead of forgetting.
 *
 * @param atMillis when the next try may start (epoch milliseconds), 0 when the entry is not waiting
 * @param failures the runs that failed in a row, the last one included; 0 when none
 * @param sinceMillis when the first of those failed (epoch milliseconds), 0 when none
 */
public record EntryRetry(long atMillis, int failures, long sinceMillis) {
  /** Not waiting, no failures counted: what every entry a person queued, paused or resumed has. */
  public static final EntryRetry NONE = new EntryRetry(0, 0, 0);

  /**
   * Checks its arguments: none negative, and a time for each failure streak.
   *
   * @param atMillis when the next try may start, 0 for none
   * @param failures the failed runs in a row
   * @param sinceMillis when the first of them failed, 0 for none
   */
  public EntryRetry {
    if (atMillis < 0 || failures < 0 || sinceMillis < 0 || (failures > 0) != (sinceMillis > 0)) {
      throw new IllegalArgumentException("a retry needs times of 0 or more and a start for each streak of failures");
    }
  }

  /** {@return whether the entry waits for {@link #atMillis} before it runs again} */
  public boolean waiting() {
    return atMillis > 0;
  }
}
