package dev.braid.core.schedule;

import dev.braid.core.ConnectionChange;
import dev.braid.core.fetch.SegmentStreamer;
import dev.braid.core.fetch.TransientFailure;
import dev.braid.core.http.Exchange;
import dev.braid.core.io.PartFile;
import dev.braid.core.plan.Segment;
import dev.braid.core.plan.SegmentTable;
import java.net.SocketException;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hc.core5.http.NoHttpResponseException;

/**
 * The workers of one pass and how many of them run. The driver thread calls {@link #tick} a few
 * times a second: it feeds the {@link ConnectionController}, replaces slow connections, starts
 * workers up to the target while there is work to hand out, and retires workers above it.
 * Workers call back when they exit or when the server refuses them. Each worker holds one
 * permit of the {@code Braid}-wide connection budget while it runs.
 */
final class WorkerPool {
  private final Attempt attempt;
  private final DownloadJob job;
  private final PartFile part;
  private final SegmentTable table;
  private final ConnectionController controller;
  private final SlowConnections slow;
  private final ConnectionBudget budget;
  private final String host;
  private final List<Worker> workers = new CopyOnWriteArrayList<>();
  private final Object exits = new Object();
  private volatile boolean exhausted;
  /** A worker was turned away since the last tick; the limit is read off at the next one. */
  private volatile boolean refusedSinceTick;
  /** The most workers that ran at once. Written by the driver thread only (workers start there). */
  private int peakWorkers;

  WorkerPool(Attempt attempt, DownloadJob job, PartFile part, ConnectionController controller, long now) {
    this.attempt = attempt;
    this.job = job;
    this.part = part;
    this.table = attempt.table();
    this.controller = controller;
    this.slow = new SlowConnections(now, attempt.settings().lowestSpeed());
    this.budget = job.budget();
    this.host = DownloadJob.hostOf(attempt.identity());
  }

  /**
   * Starts the first worker, which streams {@code first} into {@code firstSegment} when both are
   * given; the driver then starts the others with {@link #topUp}.
   */
  void start(Exchange first, Segment firstSegment) {
    if (first != null && firstSegment != null && budget.tryAcquire(host)) {
      launch(first, firstSegment);
    } else {
      // no use for the probe's body, or no connection to spare right now (other downloads hold
      // the budget): its segment goes back to the table for the first worker that can start
      if (first != null) {
        first.abort();
      }
      if (firstSegment != null) {
        table.release(firstSegment);
      }
    }
  }

  /** One driver step. Returns false once no worker runs and none will be started. */
  boolean tick(long now) {
    if (!attempt.halted()) {
      if (refusedSinceTick && workers.stream().noneMatch(Worker::opening)) {
        // counted once every request of the burst has its answer, not at the refusal: others the
        // server let in may not have had their response head yet, and others may be refused too
        refusedSinceTick = false;
        apply(controller.refused(busy(), now));
      }
      apply(controller.sample(now, job.fetched().sum(), busy()));
      // over HTTP/2 a slow range is a stream of the one shared connection: a fresh stream would
      // be no faster, and aborting this one closed the connection under every other stream
      for (SlowConnections.Verdict v : attempt.overHttp2() ? List.<SlowConnections.Verdict>of() : slow.check(now, workers)) {
        v.worker().replaceConnection();
        job.noteChange(new ConnectionChange(job.elapsed(), workers.size(), workers.size(),
            "slow connection replaced (" + v.why() + ")"));
      }
      topUp();
      trim();
    }
    return !workers.isEmpty() || (canStart() && !attempt.halted());
  }

  /** Waits up to {@code millis} or until a worker exits. */
  void await(long millis) throws InterruptedException {
    synchronized (exits) {
      exits.wait(millis);
    }
  }

  /** Aborts every worker's open exchange (after {@link Attempt#halt} set the flag). */
  void abortAll() {
    workers.forEach(Worker::abortCurrent);
  }

  int busy() {
    int n = 0;
    for (Worker w : workers) {
      if (w.busy()) {
        n++;
      }
    }
    return n;
  }

  /** The median throughput of the connections that have streamed, bytes per second; 0 before any has. */
  double typicalConnectionRate() {
    double[] rates = workers.stream().mapToDouble(Worker::bytesPerSecond).filter(r -> r > 0).sorted().toArray();
    return rates.length == 0 ? 0 : rates[rates.length / 2];
  }

  int target() {
    return controller.target();
  }

  /** The most workers, so connections, that ran at once in this pass. */
  int peakWorkers() {
    return peakWorkers;
  }

  ConnectionController controller() {
    return controller;
  }

  /** A worker ran out of retries: start no more, let the others finish what they hold. */
  void exhausted() {
    exhausted = true;
  }

  /**
   * The server turned a worker away before any byte (503, 429, refused or reset connection).
   * With other connections streaming, this one was one too many: the controller lowers the
   * limit and the worker retires. Returns whether it should.
   */
  boolean refused(Worker w, TransientFailure f) {
    boolean limitSignal = switch (f.kind()) {
      case HTTP_STATUS -> f.status() == 503 || f.status() == 429;
      case NETWORK -> f.getCause() instanceof SocketException || f.getCause() instanceof NoHttpResponseException;
      case PROTOCOL -> false;
    };
    return limitSignal && refusedBeyond(w);
  }

  /** A 403 for an extra connection only (others stream fine): a limit, not a final answer. */
  boolean refusedForbidden(Worker w) {
    return refusedBeyond(w);
  }

  private boolean refusedBeyond(Worker w) {
    int others = busy() - (w.busy() ? 1 : 0);
    if (!controller.isLimitSignal(others)) {
      return false;
    }
    refusedSinceTick = true;
    return true;
  }

  void exited(Worker w) {
    workers.remove(w);
    budget.release(host);
    synchronized (exits) {
      exits.notifyAll();
    }
  }

  private synchronized void apply(ConnectionController.Decision d) {
    if (d != null) {
      job.noteChange(new ConnectionChange(job.elapsed(), d.from(), d.to(), d.reason()));
    }
  }

  private boolean canStart() {
    return !exhausted && table.hasWork(attempt.cutMin());
  }

  /** Starts workers up to the target while there is work to hand out and the budget grants connections. */
  void topUp() {
    while (workers.size() < controller.target() && canStart() && !attempt.halted() && budget.tryAcquire(host)) {
      launch(null, null);
    }
  }

  /** Retires the workers above the target, idle ones (waiting to retry) first. */
  private void trim() {
    int excess = workers.size() - controller.target();
    if (excess <= 0) {
      return;
    }
    workers.stream().sorted(Comparator.comparing(Worker::busy)).limit(excess).forEach(Worker::retire);
  }

  private void launch(Exchange first, Segment segment) {
    SegmentStreamer streamer = new SegmentStreamer(attempt.settings().bufferSize(), table, part, job.fetched(), job.throttle(),
        attempt.blockTracker());
    Worker w = new Worker(attempt, this, streamer, first, segment);
    workers.add(w);
    peakWorkers = Math.max(peakWorkers, workers.size());
    job.workers().execute(w);
  }
}
