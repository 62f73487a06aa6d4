package dev.braid.core.internal.queue;

import dev.braid.core.DownloadPausedException;
import dev.braid.core.DownloadRemovedException;
import dev.braid.store.DownloadState;
import dev.braid.store.EntryProgress;
import dev.braid.store.HostGrants;
import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The queue's heartbeat: tells the store how far this process's downloads are (renewing its
 * claims), and hears what other processes asked of them: a running download paused or removed
 * elsewhere stops, and one waiting here for a slot hears of it through its result.
 *
 * <p>Threads: {@link #beat()} runs on the loop thread ({@link SlotLoop}) only; no state of its own
 * beyond what it is given.
 */
final class Heartbeat {
  /** The error kind of a pause another process asks for because it removes the entry. */
  public static final String REMOVING = "removing";

  private final QueueStore table;
  private final HostGrants grants;
  private final String owner;
  private final HandleMap handles;
  private final QueueMoves moves;
  private final ListenerBus bus;

  public Heartbeat(QueueStore table, HostGrants grants, String owner, HandleMap handles, QueueMoves moves, ListenerBus bus) {
    this.table = table;
    this.grants = grants;
    this.owner = owner;
    this.handles = handles;
    this.moves = moves;
    this.bus = bus;
  }

  /** One beat, when anything runs or waits here. Loop thread. */
  public void beat() {
    if (handles.idle()) {
      return;
    }
    List<EntryProgress> progress = new ArrayList<>();
    handles.runningNow().forEach(h -> progress.add(QueueRuns.progressOf(h)));
    // only entries submitted before the store is read can be judged by what it says: one
    // submitted meanwhile is claimed by this process but may be missing from the answer
    // and only those not running: running first, so one ending meanwhile is in neither set
    Set<Long> runningNow = handles.runningIds();
    Set<Long> waiting = new HashSet<>(handles.wantedIds());
    waiting.removeAll(runningNow);
    Map<Long, DownloadState> asked = table.heartbeat(owner, progress);
    for (QueuedDownload h : handles.runningNow()) {
      DownloadState s = asked.get(h.id());
      if (s == null) {
        h.stopRun(true);
      } else if (s == DownloadState.PAUSED) {
        h.stopRun(table.get(h.id()).filter(q -> REMOVING.equals(q.errorKind())).isPresent());
      }
    }
    // entries waiting here for a slot that another process paused or removed: their callers hear it now
    for (long id : waiting) {
      QueuedDownload h = handles.wanted(id);
      DownloadState s = asked.get(id);
      if (h == null || handles.isRunning(id) || (s != null && s != DownloadState.PAUSED)) {
        continue;
      }
      Optional<QueueEntry> taken = s == null ? table.get(id) : Optional.empty();
      if (taken.isPresent() && taken.get().owner() == null) {
        // unclaimed, not taken: this process released it (it ended here meanwhile, or a claim
        // was given up); it stays waiting here and the next start claims it again
        continue;
      }
      handles.unwant(id);
      if (s == null) {
        if (taken.isPresent()) {
          h.result().completeExceptionally(HeldElsewhere.of(taken.get()));
        } else {
          handles.remove(id);
          h.result().completeExceptionally(new DownloadRemovedException("removed from the queue by another process"));
          bus.removed(h);
        }
      } else {
        table.get(id).ifPresent(e -> h.entry(e));
        moves.transition(h, DownloadState.PAUSED);
        h.result().completeExceptionally(new DownloadPausedException("paused by another process before it started"));
      }
    }
    // the connection grants of this process's downloads live under the same owner and lease
    grants.renew(owner);
  }
}
