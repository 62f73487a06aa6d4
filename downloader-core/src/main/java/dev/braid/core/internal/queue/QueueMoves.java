package dev.braid.core.internal.queue;

import dev.braid.core.DownloadPausedException;
import dev.braid.store.DownloadState;
import dev.braid.store.QueueStore;
import java.util.function.BooleanSupplier;

/**
 * The moves every part of the queue makes on a download: a new state, told to the listeners; a
 * wait here for a slot; a pause. One place, so that a submission, a kept file's answer, a run's
 * end and the heartbeat change a download the same way, without calling back into the
 * {@link DownloadQueue} that holds them.
 *
 * <p>Threads: any; a pause holds the download's {@code lifecycle} lock, as a launch does.
 */
final class QueueMoves {
  private final QueueStore table;
  private final HandleMap handles;
  private final ListenerBus bus;
  private final SlotLoop loop;
  private final String owner;

  QueueMoves(QueueStore table, String owner, HandleMap handles, ListenerBus bus, SlotLoop loop) {
    this.table = table;
    this.owner = owner;
    this.handles = handles;
    this.bus = bus;
    this.loop = loop;
  }

  /** Sets the state of {@code h} and tells the listeners. */
  void transition(QueuedDownload h, DownloadState s) {
    h.state(s);
    bus.stateChanged(h, s);
  }

  /** Sets the state of {@code h} and tells the listeners once {@code ready} holds (see {@link ListenerBus}). */
  void transition(QueuedDownload h, DownloadState s, BooleanSupplier ready) {
    h.state(s);
    bus.stateChanged(h, s, ready);
  }

  /**
   * Queues {@code h} here again. Asked of a run stopping after a pause, or of one whose end
   * completes its result, it is kept for the run's end ({@link QueueRuns}), which queues
   * it then: a resume right after a pause, or on hearing the result, takes effect.
   */
  void resume(QueuedDownload h) {
    synchronized (h.lifecycle) {
      if (handles.isRunning(h.id())) {
        // a run going on is not resumed; one stopping after a pause runs again once stopped
        h.resumeAsked = h.resumeAsked || (h.pauseAsked && !h.removing);
        return;
      }
      if (h.ending) {
        // the run ended, its result not yet done (a waiter resuming on hearing it): right after,
        // and result() is the coming run's at once, for a caller that resumes and then waits
        if (h.endsResumable && !h.resumeAsked) {
          h.resumeAsked = true;
          h.renewResult();
        }
        return;
      }
    }
    if (h.state() == DownloadState.COMPLETED) {
      return;
    }
    // claimed before it is queued, so that only this process picks it up (unless it dies)
    if (!table.claim(h.id(), owner)) {
      return;
    }
    table.setState(h.id(), DownloadState.QUEUED, null, null);
    table.get(h.id()).ifPresent(h::entry);
    queueHere(h);
  }

  /** Waits here for a slot; the handle holds the entry as it now stands in the store. */
  QueuedDownload queueHere(QueuedDownload h) {
    h.submitted();
    h.queued();
    handles.want(h);
    transition(h, DownloadState.QUEUED);
    loop.changed();
    return h;
  }

  /** Stops {@code h} if it runs here, or records it paused. */
  void pause(QueuedDownload h) {
    // under the download's lifecycle lock, as launch: a pause either finds the download running
    // or records PAUSED before launch reads the entry, never in between (one then was lost)
    synchronized (h.lifecycle) {
      handles.unwant(h.id());
      h.resumeAsked = false;
      QueuedDownload local = handles.running(h.id());
      if (local != null) {
        local.pauseAsked = true;
        local.job().pause();
        return;
      }
      if (!h.state().settled()) {
        // queued here, or driven by another process, which sees this at its next heartbeat
        table.setState(h.id(), DownloadState.PAUSED, null, null);
        table.get(h.id()).ifPresent(h::entry);
        transition(h, DownloadState.PAUSED);
        h.result().completeExceptionally(new DownloadPausedException("paused before it started"));
      }
    }
  }
}
