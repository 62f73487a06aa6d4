package dev.braid.core.internal.transfer;

import dev.braid.core.internal.fetch.SegmentStreamer;
import dev.braid.core.internal.fetch.TransientFailure;
import dev.braid.core.internal.http.Exchange;
import dev.braid.core.internal.io.SegmentSink;
import dev.braid.core.internal.limit.Throttle;
import dev.braid.core.internal.metrics.SpeedMeter;
import dev.braid.core.internal.plan.Segment;
import dev.braid.core.internal.plan.SegmentTable;
import java.net.SocketException;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hc.core5.http.NoHttpResponseException;

/**
 * The workers of one pass and how many of them run. The driver thread calls {@link #tick} a few
 * times a second: it feeds the {@link ConnectionController}, replaces slow connections, starts
 * workers up to the target while there is work to hand out, and retires workers above it.
 * Workers call back when they exit or when the server refuses them. Each worker holds one
 * permit of the {@code Braid}-wide connection budget while it runs.
 */
final class WorkerPool {
  /**
   * A split cuts into a response in flight only when the part it takes would keep the owner busy
   * at least this long. What a cut wastes is what the server already pushed past the cut: little on
   * a throttled path, megabytes on a fast one, where this many seconds of throughput is far more
   * than a small file has left, so no cut happens there.
   */
  static final double CUT_SECONDS = 0.25;

  private final PassContext context;
  private final SegmentSink part;
  private final SegmentTable table;
  private final ConnectionController controller;
  private final SlowConnections slow;
  private final ConnectionBudget budget;
  /** Runs the workers, one thread each. */
  private final Executor executor;
  private final Throttle throttle;
  /** The download's bytes so far, which the controller samples and the streamers add to. */
  private final LongAdder fetched;
  private final SpeedMeter meter;
  /** Hears each change of the connection count. */
  private final DownloadLog log;
  private final String host;
  private final List<Worker> workers = new CopyOnWriteArrayList<>();
  private final Object exits = new Object();
  private volatile boolean exhausted;
  /** A worker was turned away since the last tick; the limit is read off at the next one. */
  private volatile boolean refusedSinceTick;
  /** The most workers that ran at once. Written by the driver thread only (workers start there). */
  private int peakWorkers;

  WorkerPool(PassContext context, SegmentSink part, ConnectionController controller, long now, ConnectionBudget budget,
      Executor executor, Throttle throttle, LongAdder fetched, SpeedMeter meter, DownloadLog log) {
    this.context = context;
    this.part = part;
    this.table = context.table();
    this.controller = controller;
    this.slow = new SlowConnections(now, context.settings().lowestSpeed());
    this.budget = budget;
    this.executor = executor;
    this.throttle = throttle;
    this.fetched = fetched;
    this.meter = meter;
    this.log = log;
    this.host = HostConnections.hostOf(context.identity());
  }

  /**
   * Starts the first worker, which streams {@code first} into {@code firstSegment} when both are
   * given; the driver then starts the others with {@link #topUp}. {@code probePermit}: the
   * probe's connection permit for this host, which the first worker keeps (or which is given back).
   */
  void start(Exchange first, Segment firstSegment, boolean probePermit) {
    if (first != null && firstSegment != null && (probePermit || budget.tryAcquire(host))) {
      launch(first, firstSegment);
    } else {
      if (probePermit) {
        budget.release(host);
      }
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
    if (!context.control().halted()) {
      if (refusedSinceTick && workers.stream().noneMatch(Worker::opening)) {
        // counted once every request of the burst has its answer, not at the refusal: others the
        // server let in may not have had their response head yet, and others may be refused too
        refusedSinceTick = false;
        apply(controller.refused(busy(), now));
      }
      apply(controller.sample(now, fetched.sum(), busy()));
      // over HTTP/2 a slow range is a stream of the one shared connection: a fresh stream would
      // be no faster, and aborting this one closed the connection under every other stream
      for (SlowConnections.Verdict v : context.overHttp2() ? List.<SlowConnections.Verdict>of() : slow.check(now, workers)) {
        v.worker().replaceConnection();
        log.changed(workers.size(), workers.size(), "slow connection replaced (" + v.why() + ")");
      }
      topUp();
      trim();
    }
    return !workers.isEmpty() || (canStart() && !context.control().halted());
  }

  /** Waits up to {@code millis} or until a worker exits. */
  void await(long millis) throws InterruptedException {
    synchronized (exits) {
      exits.wait(millis);
    }
  }

  /** Aborts every worker's open exchange (after {@link PassControl#halt} set the flag). */
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

  /**
   * The least a split that cuts into a request in flight must take: {@link #CUT_SECONDS} of one
   * connection's throughput (the median of finished requests, else the download's rate per busy
   * connection).
   * Before anything is measured, no cut: on a fast path the cut response's bytes already in
   * flight (megabytes) would be thrown away; measured, a batch of 8 MiB files from a loopback
   * server was served 1.2-1.3x its size with cuts at an unknown rate.
   * Under a rate limit, no cut either: the server fills the socket buffers of a connection we
   * read slowly on purpose, so a cut threw away megabytes (a 3 MiB file at 1 MiB/s on 4
   * connections was served 1.43x its size, 1.95x with tail steals), and a connection left alone
   * gets the others' share of the limit anyway. Over HTTP/2 neither: every range is a stream of
   * the same connection, so a second stream adds no bandwidth, and a cut stream either delivers
   * its remainder anyway or, cancelled, closes the connection under all the others.
   */
  long cutMin() {
    if (throttle.limited() || context.overHttp2()) {
      return SegmentTable.NO_CUT;
    }
    double perConnection = typicalConnectionRate();
    if (perConnection <= 0) {
      perConnection = meter.bytesPerSecond() / Math.max(1, busy());
    }
    return perConnection > 0 ? (long) (perConnection * CUT_SECONDS) : SegmentTable.NO_CUT;
  }

  /** The first request of a new connection of this pool. */
  long firstRequestSize() {
    return context.firstRequestSize(controller.target());
  }

  /**
   * A request of {@code wanted} bytes, made to fit an in-order download's window
   * ({@link SegmentTable#inOrder}): two requests of every connection fit in it, so no connection
   * races ahead of the front by more than a request, and one that finishes early finds room for
   * its next while the front's owner finishes.
   */
  long requestSize(long wanted) {
    long window = table.window();
    if (window == 0) {
      return wanted;
    }
    return Math.min(wanted, Math.max(SegmentStreamer.MIN_FIRST_REQUEST, window / (2L * Math.max(1, controller.target()))));
  }

  /** The median throughput of the connections that have streamed, bytes per second; 0 before any has. */
  private double typicalConnectionRate() {
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
      log.changed(d.from(), d.to(), d.reason());
    }
  }

  private boolean canStart() {
    return !exhausted && table.hasWork(cutMin());
  }

  /** Starts workers up to the target while there is work to hand out and the budget grants connections. */
  void topUp() {
    while (workers.size() < controller.target() && canStart() && !context.control().halted() && budget.tryAcquire(host)) {
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
    SegmentStreamer streamer = new SegmentStreamer(context.settings().bufferSize(), table, part, fetched, throttle,
        context.blockTracker(), context.settings().ticker());
    Worker w = new Worker(context, this, streamer, first, segment);
    workers.add(w);
    peakWorkers = Math.max(peakWorkers, workers.size());
    executor.execute(w);
  }
}
