package dev.braid.store;

import java.util.List;
import java.util.Map;

/**
 * How many entries a queue holds in each state, and its active entries themselves, read from one
 * snapshot ({@link QueueStore#census}). Read one after the other, an entry that ended between the
 * two reads was counted in neither, and one that started in both: a client polling aria2's
 * getGlobalStat until nothing is active or waiting saw 4,998 downloads of 5,000 stopped and none
 * left.
 *
 * @param counts entries per state; states without any are absent
 * @param active the entries in {@link DownloadState#ACTIVE}, oldest first (whether their owners still
 *     run is the caller's to judge)
 */
public record QueueCensus(Map<DownloadState, Long> counts, List<QueueEntry> active) {
  /**
   * Copies both, so that the census stays as it was read.
   *
   * @param counts entries per state; states without any are absent
   * @param active the active entries, oldest first
   */
  public QueueCensus {
    counts = Map.copyOf(counts);
    active = List.copyOf(active);
  }
}
