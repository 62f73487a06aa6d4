package dev.braid.core.internal.queue;

import dev.braid.core.DownloadRemovedException;
import dev.braid.core.time.Ticker;
import dev.braid.store.DownloadState;
import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;
import dev.braid.store.ResumeRecords;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Removes an entry from the queue: stops its run here, or asks the process that drives it to let
 * go, then forgets the entry and, when asked, its files.
 *
 * <p>Threads: the caller's, which it blocks until the run stopped (bounded: 60 s for a run here,
 * 15 s for another process's). An interrupt cuts the wait for a run here short and is kept for
 * the caller (its flag set again); the removal then goes on.
 */
final class QueueRemoval {
  private final QueueStore table;
  private final ResumeRecords records;
  private final String owner;
  private final HandleMap handles;
  private final ListenerBus bus;
  /** What the wait for another process's run measures. */
  private final Ticker ticker;

  QueueRemoval(QueueStore table, ResumeRecords records, String owner, HandleMap handles, ListenerBus bus, Ticker ticker) {
    this.table = table;
    this.records = records;
    this.owner = owner;
    this.handles = handles;
    this.bus = bus;
    this.ticker = ticker;
  }

  void remove(QueuedDownload h, boolean deleteFile, boolean deletePart) {
    h.removing = true;
    // the stopped run releases the entry still active (its end is no state): the loop must not
    // take it again before the delete below, or a removed download would run on
    handles.removalBegins(h.id());
    QueueEntry e;
    try {
      handles.unwant(h.id());
      QueuedDownload local = handles.running(h.id());
      if (local != null) {
        local.job().pause();
        awaitQuietly(local);
      } else {
        awaitRelease(h);
      }
      e = table.get(h.id()).orElse(h.entry());
      table.remove(h.id());
      handles.remove(h.id());
    } finally {
      handles.removalEnded(h.id());
    }
    Optional<Path> target = Optional.ofNullable(e.target() != null ? e.target() : e.file()).or(h::file);
    if (target.isPresent() && (deleteFile || deletePart)) {
      EntryFiles.delete(records, target.get(), deleteFile);
    }
    h.result().completeExceptionally(new DownloadRemovedException("removed from the queue"));
    bus.removed(h);
  }

  /** Another process drives it: ask it to stop and wait (bounded) for it to let go. */
  private void awaitRelease(QueuedDownload h) {
    Optional<QueueEntry> e = table.get(h.id());
    if (e.isEmpty() || !table.held(e.get()) || e.get().owner().equals(owner)) {
      return;
    }
    boolean driving = e.get().state() == DownloadState.ACTIVE;
    // a pause its owner can tell from one asked for: it stops as for a pause, then tells its
    // caller the entry is gone instead of "run again to resume"
    table.setState(h.id(), DownloadState.PAUSED, "removed from the queue by another process", Heartbeat.REMOVING);
    if (!driving) {
      // queued there, not started: its owner hears of the removal at its next heartbeat
      return;
    }
    long deadline = ticker.read() + TimeUnit.SECONDS.toNanos(15);
    while (ticker.read() < deadline) {
      Optional<QueueEntry> now = table.get(h.id());
      if (now.isEmpty() || now.get().owner() == null || !table.held(now.get())) {
        return;
      }
      sleep(100);
    }
  }

  private static void awaitQuietly(QueuedDownload h) {
    try {
      h.result().handle((r, e) -> null).get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
