package dev.braid.core.internal.queue;

import dev.braid.core.RunWindow;
import dev.braid.core.SpeedSchedule;
import dev.braid.core.internal.limit.TokenBucket;
import java.time.Clock;
import java.time.LocalDateTime;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * The queue's schedule: the windows in which it starts downloads, and the global limit by time of
 * day. The queue's loop thread calls {@link #tick} on every turn: outside every window it holds the
 * running downloads (they stop with their progress recorded and wait queued, not paused) and
 * {@link #allowsStarts} keeps new ones from starting; when a window opens the queue starts them
 * again. The limit changes on the global bucket as the time passes from one entry to another.
 * Other threads change the schedule; the loop sees it at its next turn.
 */
public final class QueueSchedule {
  /** Null for the system clock in the default zone, looked up only once a schedule is set (zone data costs start-up). */
  private final Clock givenClock;
  private final TokenBucket bucket;
  private volatile List<RunWindow> windows;
  private volatile SpeedSchedule speeds;
  /** The limit where no entry of the speed schedule applies. */
  private volatile long baseRate;
  /** Set when the speeds or the base changed: the loop applies the limit again. */
  private volatile boolean reapply;
  private volatile boolean open = true;
  /** The speed entry last applied, -1 for the base; read and written by the loop only. */
  private int applied = Integer.MIN_VALUE;
  private Clock clock;

  public QueueSchedule(Clock clock, TokenBucket bucket, List<RunWindow> windows, SpeedSchedule speeds) {
    this.givenClock = clock;
    this.bucket = bucket;
    this.windows = List.copyOf(windows);
    this.speeds = Objects.requireNonNull(speeds, "speeds");
    this.baseRate = bucket.rate();
    this.reapply = !speeds.entries().isEmpty();
  }

  /**
   * One turn of the queue's loop: applies the limit of the time, and outside every window holds
   * {@code running}. Whether a window just opened (the queue then looks for work at once).
   */
  boolean tick(Collection<QueuedDownload> running) {
    List<RunWindow> w = windows;
    SpeedSchedule s = speeds;
    if (w.isEmpty() && s.entries().isEmpty()) {
      if (reapply) {
        // a speed schedule removed: the set limit again
        reapply = false;
        applied = -1;
        bucket.setRate(baseRate);
      }
      return open(true);
    }
    LocalDateTime now = LocalDateTime.now(clock());
    int entry = s.entryAt(now);
    if (reapply || entry != applied) {
      reapply = false;
      applied = entry;
      bucket.setRate(entry < 0 ? baseRate : s.entries().get(entry).bytesPerSecond());
    }
    boolean inWindow = w.isEmpty() || w.stream().anyMatch(x -> x.contains(now));
    if (!inWindow) {
      for (QueuedDownload h : running) {
        if (!h.held) {
          // queued again when its run ends, not paused: the next window continues it from its bytes
          h.held = true;
          h.job().pause();
        }
      }
    }
    return open(inWindow);
  }

  private boolean open(boolean now) {
    boolean opened = now && !open;
    open = now;
    return opened;
  }

  private Clock clock() {
    if (clock == null) {
      clock = givenClock != null ? givenClock : Clock.systemDefaultZone();
    }
    return clock;
  }

  /** Whether the queue may start downloads now (as of the last turn). */
  public boolean allowsStarts() {
    return open;
  }

  public void windows(List<RunWindow> w) {
    windows = List.copyOf(w);
  }

  public List<RunWindow> windows() {
    return windows;
  }

  public void speeds(SpeedSchedule s) {
    speeds = Objects.requireNonNull(s, "schedule");
    reapply = true;
  }

  public SpeedSchedule speeds() {
    return speeds;
  }

  /** A limit set by hand: now, and wherever the speed schedule has no entry; the next entry's time overrides it. */
  public void rateLimit(long bytesPerSecond) {
    baseRate = bytesPerSecond;
    bucket.setRate(bytesPerSecond);
  }
}
