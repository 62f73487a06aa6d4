package dev.braid.core.internal.queue;

import dev.braid.core.RunWindow;
import dev.braid.core.SpeedSchedule;
import dev.braid.core.internal.limit.TokenBucket;
import dev.braid.store.StateStore;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/** A queue's schedule as its state database stores it ({@link RunWindow#SETTING}, {@link SpeedSchedule#SETTING}). */
public final class StoredSchedule {
  private StoredSchedule() {}

  /** The schedule of {@code store}'s queue where {@code windows} or {@code speeds} is null (not given). */
  public static QueueSchedule read(StateStore store, Clock clock, TokenBucket bucket, List<RunWindow> windows, SpeedSchedule speeds) {
    Map<String, String> stored = windows == null || speeds == null ? store.settings() : Map.of();
    List<RunWindow> w = windows;
    if (w == null) {
      try {
        w = RunWindow.parseList(stored.getOrDefault(RunWindow.SETTING, ""));
      } catch (IllegalArgumentException e) {
        // written by hand or by an older version: none rather than a queue that cannot start
        w = List.of();
      }
    }
    SpeedSchedule s = speeds;
    if (s == null) {
      try {
        s = SpeedSchedule.parse(stored.getOrDefault(SpeedSchedule.SETTING, ""));
      } catch (IllegalArgumentException e) {
        s = SpeedSchedule.NONE;
      }
    }
    return new QueueSchedule(clock, bucket, w, s);
  }
}
