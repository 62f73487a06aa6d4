package dev.braid.core.internal.queue;

import dev.braid.core.DownloadPausedException;
import dev.braid.core.DownloadRemovedException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadResult;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.Progress;
import dev.braid.core.StoredFailure;
import dev.braid.core.internal.transfer.DownloadJob;
import dev.braid.store.DownloadState;
import dev.braid.store.EntryProgress;
import dev.braid.store.EntryRetry;
import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * The runs of one queue: starts an entry the loop offers (claims it, decodes its request with the
 * secrets kept here, hands a job to a driver thread) and records its end.
 *
 * <p>Threads: {@link #tryStart} runs on the loop thread; {@link #finished} on the download's
 * driver thread, after every connection stopped. Locks: a launch holds the handle's
 * {@code lifecycle} lock, as a pause does, so that a pause either finds the download running or
 * records PAUSED before the launch reads the entry. A run's end holds it too while it records the
 * end and lets go of the download, so that a resume is asked either of the run (a resume of a run
 * stopping after a pause: it ends queued and runs again) or after it (it queues the download).
 *
 * <p>Order of a run's end: the store records it; the end event is posted, then the slot frees,
 * then the result completes; listeners hear the event only once the result is done
 * ({@link ListenerBus}), so a listener that hears a run's end finds its result there and its
 * resume works, and a waiter on the result may resume at once.
 */
final class QueueRuns {
  private final QueueStore table;
  private final String owner;
  private final Function<DownloadRequest, DownloadJob> jobs;
  private final Executor drivers;
  private final boolean runAll;
  private final HandleMap handles;
  private final QueueMoves moves;
  private final RequestSecrets secrets;
  private final SlotLoop loop;
  private final OutageWaits waits;

  /**
   * @param jobs makes the job of a decoded request
   * @param drivers runs each job, a thread per download
   * @param runAll whether this process runs every runnable entry, or only those wanted here
   * @param loop told when a run ended, so that it looks for the next; says whether the queue closes
   * @param waits decides whether a failed run waits out an outage rather than failing
   */
  QueueRuns(QueueStore table, String owner, Function<DownloadRequest, DownloadJob> jobs, Executor drivers, boolean runAll,
      HandleMap handles, QueueMoves moves, RequestSecrets secrets, SlotLoop loop, OutageWaits waits) {
    this.table = table;
    this.owner = owner;
    this.jobs = jobs;
    this.drivers = drivers;
    this.runAll = runAll;
    this.handles = handles;
    this.moves = moves;
    this.secrets = secrets;
    this.loop = loop;
    this.waits = waits;
  }

  /** Runs entry {@code id} if this process should: it runs the whole queue, or the entry is wanted here. Loop thread. */
  void tryStart(long id) {
    if (handles.isRunning(id) || handles.isBeingRemoved(id) || (!runAll && !handles.isWanted(id))) {
      return;
    }
    QueuedDownload h = handles.wanted(id);
    Optional<QueuedDownload> runnable = h != null ? Optional.of(h) : table.get(id).map(handles::handle);
    if (runnable.isPresent() && !launch(runnable.get())) {
      if (h != null) {
        refuseIfHeldElsewhere(h);
      } else if (table.get(id).isEmpty()) {
        // removed between the page's read and now: the handle made from that read must not
        // outlive its entry (find() kept answering with it)
        handles.remove(id);
      }
    }
  }

  /** Asked for here, but another live process took it first: only one may drive it. */
  private void refuseIfHeldElsewhere(QueuedDownload h) {
    Optional<QueueEntry> e = table.get(h.id());
    boolean held = e.isPresent() && e.get().owner() != null && !e.get().owner().equals(owner)
        && (e.get().state() == DownloadState.QUEUED || e.get().state() == DownloadState.ACTIVE);
    if (held && handles.unwant(h.id()) != null) {
      h.result().completeExceptionally(HeldElsewhere.of(e.get()));
    }
  }

  /**
   * Claims and starts an entry, unless it was paused or removed since the page was read or a
   * live other process holds it; whether it started (or failed at once).
   */
  private boolean launch(QueuedDownload h) {
    synchronized (h.lifecycle) {
      Optional<QueueEntry> started = table.start(h.id(), owner);
      if (started.isEmpty()) {
        return false;
      }
      QueueEntry e = started.get();
      h.entry(e);
      h.removing = false;
      DownloadRequest request;
      try {
        request = secrets.restore(e.id(), RequestCodec.decode(e, table.headers(e.id())));
      } catch (InvalidRequestException ex) {
        table.setState(e.id(), DownloadState.FAILED, ex.getMessage(), StoredFailure.encode(ex));
        table.release(e.id(), owner);
        // the handle shows the error and its kind from the entry, as for a failure read back later
        table.get(e.id()).ifPresent(h::entry);
        handles.unwant(e.id());
        moves.transition(h, DownloadState.FAILED);
        h.result().completeExceptionally(ex);
        return true;
      }
      DownloadJob job = jobs.apply(request);
      h.started(job);
      handles.startedRunning(h);
      moves.transition(h, DownloadState.ACTIVE);
      Run run = new Run(e.retry(), e.done());
      job.result().whenComplete((r, ex) -> finished(h, job, run, r, ex));
      drivers.execute(job);
      return true;
    }
  }

  /** What a run's end needs of its start: the retry state and the bytes then. */
  private record Run(EntryRetry retry, long doneAtStart) {}

  /** On the download's driver thread, after every connection stopped and its progress was recorded. */
  private void finished(QueuedDownload h, DownloadJob job, Run run, DownloadResult r, Throwable failure) {
    Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    // read once: a heartbeat that reads the store after the finish below sees the entry released
    // and marks it removing; the end decided here stands
    boolean removing = h.removing;
    DownloadState end;
    // a failure that passes (an outage) under a policy that still retries: the entry waits, queued
    Optional<EntryRetry> wait = Optional.empty();
    if (removing) {
      end = h.state();
    } else if (r != null) {
      end = DownloadState.COMPLETED;
    } else if (cause instanceof DownloadPausedException) {
      // closing Braid keeps the queue's intent: the entry runs again next time
      // and a run the schedule stopped waits for the next window
      end = h.pauseAsked || !(loop.closing() || h.held) ? DownloadState.PAUSED : DownloadState.QUEUED;
    } else {
      // the download's own policy as it stands now: a client may have changed it during the run
      wait = waits.after(cause, run.retry(), job.progress().done() > run.doneAtStart(), RequestCodec.outageRetry(h.entry()));
      end = wait.isPresent() ? DownloadState.QUEUED : DownloadState.FAILED;
    }
    if (!job.currentUri().toString().equals(h.entry().url()) && job.target().isPresent()) {
      // the refresher moved it: a later run continues from the new URL
      List<String> urls = new ArrayList<>(h.entry().urls());
      urls.set(0, job.currentUri().toString());
      try {
        table.changeUrls(h.id(), urls, job.target().get());
      } catch (RuntimeException e) {
        // as below: the outcome still reaches the caller
      }
    }
    CompletableFuture<DownloadResult> result = h.result();
    boolean completes;
    synchronized (h.lifecycle) {
      // under the lock a resume takes (QueueMoves#resume): it is asked either of the run, and
      // seen here, or after the run let go of the download
      boolean resumed = end == DownloadState.PAUSED && h.resumeAsked && !removing;
      if (resumed) {
        // resumed while it stopped after a pause: it ends queued, wanted here again (the pause
        // let go of it), its result to come
        end = DownloadState.QUEUED;
        h.submitted();
        handles.want(h);
      }
      h.resumeAsked = false;
      // an outage wait or a resume: the entry waits here for its next run, which completes the result
      completes = r != null || (wait.isEmpty() && !resumed);
      record(h, job, cause, end, removing, wait);
      // posted before the slot frees: the next launch (loop thread) posts its ACTIVE after it, so
      // listeners never see more than the limit active; told only once the result is done
      if (!removing) {
        moves.transition(h, end, completes ? result::isDone : () -> true);
      }
      // out of wanted before out of running: a heartbeat that reads running first never takes a
      // download this process just ended for one waiting here
      if (end != DownloadState.QUEUED) {
        handles.unwant(h.id());
      }
      handles.stoppedRunning(h.id());
      // out of running, its result not done yet: a resume now (a waiter's) waits for the lines below
      h.ending = completes;
      h.endsResumable = !removing && (end == DownloadState.PAUSED || end == DownloadState.FAILED);
    }
    if (r != null) {
      result.complete(r);
    } else if (completes) {
      // the job only saw a pause; its caller must hear that the entry is gone and will not resume
      result.completeExceptionally(removing ? new DownloadRemovedException("removed from the queue while it ran") : cause);
    }
    // a slot is free and the end event ready: the loop delivers it and looks for the next
    loop.changed();
    if (completes) {
      resumeIfAsked(h);
    }
  }

  /** Records the end of {@code h}'s run in the store; the handle holds the entry as it then stands. */
  private void record(QueuedDownload h, DownloadJob job, Throwable cause, DownloadState end, boolean removing, Optional<EntryRetry> wait) {
    boolean keepsError = end == DownloadState.FAILED || wait.isPresent();
    try {
      // one transaction: a batch of small files ends a download every few milliseconds
      table.finish(owner, progressOf(h, job), removing ? null : end,
          keepsError ? cause.getMessage() : null, keepsError ? StoredFailure.encode(cause) : null, wait.orElse(EntryRetry.NONE))
          .ifPresent(h::entry);
    } catch (RuntimeException e) {
      // the store failed (busy, full disk): the outcome still reaches the caller; the entry
      // stays active under this process, and a run after this process ends resumes it
    }
  }

  /**
   * Queues {@code h} again if its run ended resumable and a resume was asked while the end
   * completed the result (a waiter's, or one on hearing the result).
   */
  private void resumeIfAsked(QueuedDownload h) {
    boolean again;
    synchronized (h.lifecycle) {
      h.ending = false;
      again = h.resumeAsked && h.endsResumable;
      h.resumeAsked = false;
    }
    if (again) {
      // as if asked now: the download is out of running and its result done
      moves.resume(h);
    }
  }

  /** What the store is told of a running download's progress ({@link DownloadReads#orRecorded}: nothing counted yet keeps the bytes recorded). */
  static EntryProgress progressOf(QueuedDownload h) {
    return progressOf(h, h.job());
  }

  private static EntryProgress progressOf(QueuedDownload h, DownloadJob job) {
    Progress p = DownloadReads.orRecorded(job.progress(), h.entry());
    return new EntryProgress(h.id(), job.target().orElse(null), p.length(), p.done());
  }
}
