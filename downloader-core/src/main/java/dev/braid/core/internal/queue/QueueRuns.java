package dev.braid.core.internal.queue;

import dev.braid.core.DownloadRequest;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.StoredFailure;
import dev.braid.core.internal.transfer.DownloadJob;
import dev.braid.store.DownloadState;
import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * The runs of one queue: starts an entry the loop offers (hands it to a driver thread, which
 * claims it, decodes its request with the secrets kept here and runs its job); {@link RunEnd}
 * records its end.
 *
 * <p>Threads: {@link #tryStart} runs on the loop thread and only hands the entry over: the claim
 * is a store write, which waits behind the download threads' writes, and the loop made one per
 * file while every other slot waited for it (75 % of the loop's time, its writes included, with
 * 1,000 small files; their rate was the loop's). The launch then runs on the driver thread
 * that runs the job, and the run's end ({@link RunEnd#finished}) on the same thread after every connection stopped. An entry handed over
 * holds its slot ({@link HandleMap#launchBegins}) until it runs or is refused; a refused one is not offered
 * again before the loop's next refresh ({@link #forgetRefusals}), so that an entry another
 * process holds costs one refused claim a second rather than one at every turn. Locks: a launch holds the handle's
 * {@code lifecycle} lock, as a pause does, so that a pause either finds the download running or
 * records PAUSED before the launch reads the entry. A run's end is {@link RunEnd}'s.
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
  private final RunEnd ends;
  private final Set<Long> refused = ConcurrentHashMap.newKeySet();

  /**
   * @param jobs makes the job of a decoded request
   * @param drivers launches and runs each job, a thread per download
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
    this.ends = new RunEnd(table, owner, handles, moves, loop, waits);
  }

  /**
   * Hands entry {@code id} to a driver thread to run, if this process should: it runs the whole
   * queue, or the entry is wanted here. Loop thread.
   */
  void tryStart(long id) {
    if (handles.isRunning(id) || handles.isLaunching(id) || refused.contains(id) || handles.isBeingRemoved(id)
        || (!runAll && !handles.isWanted(id))) {
      return;
    }
    QueuedDownload wanted = handles.wanted(id);
    Optional<QueuedDownload> runnable = wanted != null ? Optional.of(wanted) : table.get(id).map(handles::handle);
    if (runnable.isEmpty()) {
      return;
    }
    QueuedDownload h = runnable.get();
    handles.launchBegins(id);
    try {
      drivers.execute(() -> launchAndRun(h, wanted != null));
    } catch (RuntimeException e) {
      // the driver pool refused it (Braid closing): the entry stays queued for the next run
      handles.launchEnded(id);
      throw e;
    }
  }

  /** Entries refused since the last refresh may be offered again (the loop's refresh, once a second). */
  void forgetRefusals() {
    refused.clear();
  }

  /** On a driver thread: starts {@code h} and runs its job here, or hands the slot back when it cannot start. */
  private void launchAndRun(QueuedDownload h, boolean wasWanted) {
    Launch outcome;
    try {
      outcome = launch(h);
    } catch (RuntimeException e) {
      // the store failed (busy, another process holding it): as on the loop before, the entry
      // stays queued and is offered again later, here after the loop's next refresh
      outcome = Launch.FAILED;
    } finally {
      // after the launch put it in running (or let it go): the loop never sees the slot free twice
      handles.launchEnded(h.id());
    }
    if (outcome == Launch.STARTED) {
      h.job().run();
      return;
    }
    if (outcome != Launch.ENDED) {
      refused.add(h.id());
    }
    if (outcome == Launch.REFUSED) {
      if (wasWanted) {
        refuseIfHeldElsewhere(h);
      } else if (table.get(h.id()).isEmpty()) {
        // removed between the page's read and now: the handle made from that read must not
        // outlive its entry (find() kept answering with it)
        handles.remove(h.id());
      }
    }
    // the slot is free again: the loop offers the next entry
    loop.changed();
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

  /** What a launch came to. */
  private enum Launch {
    /** The job is made and its download running: run it. */
    STARTED,
    /** The entry failed at once (a request that no longer decodes): its end is recorded. */
    ENDED,
    /** Paused, removed or taken since the page was read, or the queue closes: nothing changed. */
    REFUSED,
    /** The store failed: nothing changed. */
    FAILED
  }

  /**
   * Claims and starts an entry, unless it was paused or removed since the page was read, a live
   * other process holds it, or the queue closes.
   */
  private Launch launch(QueuedDownload h) {
    synchronized (h.lifecycle) {
      if (loop.closing() || handles.isBeingRemoved(h.id())) {
        return Launch.REFUSED;
      }
      Optional<QueueEntry> started = table.start(h.id(), owner);
      if (started.isEmpty()) {
        return Launch.REFUSED;
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
        return Launch.ENDED;
      }
      DownloadJob job = jobs.apply(request);
      h.started(job);
      handles.startedRunning(h);
      moves.transition(h, DownloadState.ACTIVE);
      RunEnd.Start start = new RunEnd.Start(e.retry(), e.done());
      job.result().whenComplete((r, ex) -> ends.finished(h, job, start, r, ex));
      if (loop.closing()) {
        // closing began after the check above: its sweep of the running downloads may have
        // missed this one, which then ends queued at once, as they do
        job.pause();
      }
      return Launch.STARTED;
    }
  }
}
