package dev.braid.core.internal.transfer;

import dev.braid.core.ConnectionChange;
import dev.braid.core.DownloadNote;
import dev.braid.core.time.Ticker;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What one download's run tells as it goes, timed from its start: the notes {@code --debug}
 * prints, every change of the connection count, the restarts from zero and the damaged bytes
 * fetched again. The stages write to it; the download's public handle reads it. Written by the
 * driver and worker threads, read by any.
 */
final class DownloadLog {
  private final Ticker ticker;
  private final long startNanos;

  private final List<ConnectionChange> changes = new CopyOnWriteArrayList<>();
  private final List<DownloadNote> notes = new CopyOnWriteArrayList<>();
  private volatile String lastRestartReason;
  /** Driver thread only. */
  private int restarts;
  private volatile long damaged;

  /** @param ticker what the times since the start are read from */
  DownloadLog(Ticker ticker) {
    this.ticker = ticker;
    this.startNanos = ticker.read();
  }

  /** The time since the download started. */
  Duration elapsed() {
    return Duration.ofNanos(ticker.read() - startNanos);
  }

  /**
   * Notes an event of the download's course that changes no count (a mirror left out, a URL that
   * failed, a server quirk worked around, a protocol trial stopped), which {@code --debug} prints.
   */
  void note(String what) {
    notes.add(new DownloadNote(elapsed(), what));
  }

  /** Every note so far, oldest first. */
  List<DownloadNote> notes() {
    return List.copyOf(notes);
  }

  /** The connection count went (or is meant to go) from {@code from} to {@code to}, for {@code why}. */
  void changed(int from, int to, String why) {
    changes.add(new ConnectionChange(elapsed(), from, to, why));
  }

  /** Every change of the connection count so far, oldest first. */
  List<ConnectionChange> changes() {
    return List.copyOf(changes);
  }

  /** A pass found the stored bytes unusable and starts from zero. */
  void restarted(String reason) {
    restarts++;
    lastRestartReason = reason;
  }

  int restarts() {
    return restarts;
  }

  /** Why the last restart from zero happened, or null. */
  String lastRestartReason() {
    return lastRestartReason;
  }

  /** {@code bytes} on disk failed their block check at resume and are fetched again. */
  void damaged(long bytes) {
    damaged += bytes;
  }

  long damagedBytes() {
    return damaged;
  }
}
