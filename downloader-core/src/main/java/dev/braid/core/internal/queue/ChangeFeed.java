package dev.braid.core.internal.queue;

import dev.braid.store.ChangeMark;
import dev.braid.store.DownloadState;
import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What other processes changed in the queue, brought to the handles held here: new entries, the
 * states and progress of entries someone holds a handle of, and removals of those. Reads the queue
 * only when another process wrote to the store, and then only what changed since the last look
 * (the store's change numbers): re-reading every row of a long history each second kept two
 * processes on one store busy (20,000 rows: 5x the CPU of a download).
 *
 * <p>Threads: {@link #refresh()} runs on the loop thread only, which alone reads and writes the
 * feed's position ({@code newestSeen}, {@code changesSeen}: set by the constructor before that
 * thread starts); {@link #addedHere} may come from any thread (a concurrent set).
 */
final class ChangeFeed {
  private final QueueStore table;
  private final HandleMap handles;
  private final QueueMoves moves;
  private final ListenerBus bus;
  /** The highest id the feed has seen: a higher one is an entry another process added. Loop thread. */
  private long newestSeen;
  /** The change number the feed has read up to. Loop thread. */
  private long changesSeen;
  /** Ids this process added that the feed has not read yet: not news to announce. */
  private final Set<Long> addedHere = ConcurrentHashMap.newKeySet();

  /**
   * What the store holds now is history, read by whoever asks and not announced; what changes
   * from here on is news, also before the loop's first look (whose start a busy machine delays).
   */
  public ChangeFeed(QueueStore table, HandleMap handles, QueueMoves moves, ListenerBus bus) {
    this.table = table;
    this.handles = handles;
    this.moves = moves;
    this.bus = bus;
    ChangeMark now = table.mark();
    this.newestSeen = now.newestId();
    this.changesSeen = now.latestChange();
  }

  /** Entry {@code id} was added by this process: the feed does not announce it. Any thread. */
  public void addedHere(long id) {
    addedHere.add(id);
  }

  /** One look at what changed since the last. Loop thread. */
  public void refresh() {
    ChangeMark mark = table.mark();
    long upTo = mark.latestChange();
    // with no other writer since the last look, every change is this process's own
    if (!mark.othersWrote()) {
      newestSeen = mark.newestId();
      changesSeen = upTo;
      addedHere.removeIf(id -> id <= newestSeen);
      showGoneOwners();
      return;
    }
    long newest = newestSeen;
    for (QueueEntry e : table.changedBetween(changesSeen, upTo)) {
      newestSeen = Math.max(newestSeen, e.id());
      if (handles.isRunning(e.id())) {
        continue;
      }
      boolean added = e.id() > newest && !addedHere.contains(e.id()) && !handles.contains(e.id());
      QueuedDownload h = added ? handles.handle(e) : handles.get(e.id());
      if (h == null) {
        continue;
      }
      h.entry(e);
      DownloadState s = handles.shown(e);
      if (added || s != h.state()) {
        moves.transition(h, s);
      }
    }
    for (long id : table.removedBetween(changesSeen, upTo)) {
      // the heartbeat tells the callers of what this process drives or waits for
      QueuedDownload h = handles.isRunning(id) || handles.isWanted(id) ? null : handles.remove(id);
      if (h != null) {
        bus.removed(h);
      }
    }
    changesSeen = upTo;
    addedHere.removeIf(id -> id <= newestSeen);
    showGoneOwners();
  }

  /**
   * An entry whose process ended without a word (killed, crashed) changes no row: it is shown
   * as queued once its owner is gone, judged from the entry as last read.
   */
  private void showGoneOwners() {
    for (QueuedDownload h : handles.values()) {
      if (h.state() == DownloadState.ACTIVE && !handles.isRunning(h.id())) {
        DownloadState s = handles.shown(h.entry());
        if (s != DownloadState.ACTIVE) {
          moves.transition(h, s);
        }
      }
    }
  }
}
