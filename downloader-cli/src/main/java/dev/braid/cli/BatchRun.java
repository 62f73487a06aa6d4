package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadResult;
import dev.braid.core.InvalidRequestException;
import dev.braid.store.DownloadState;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * Runs a batch through Braid a window at a time: it submits a few more downloads than run at once
 * and submits the next as each one ends, so memory follows the window, not the batch (holding a
 * handle per download ran a 60,000-file batch's heap full). Entries start highest priority
 * first, then in list order, as they would had all been queued at once; the ones not submitted
 * yet are not in the queue, so {@code braid list} shows the window, and running the same
 * command again resumes the rest.
 *
 * <p>Threads: {@link #run} blocks its caller, which does all submitting and counting; the
 * downloads' ends reach it through a queue, from Braid's threads. {@link #stop()} may be called
 * from any thread (the shutdown hook).
 */
final class BatchRun {
  /** A download of the batch, built only when its turn comes. */
  interface Item {
    int priority();

    /** Whether its URL is an https one, told without building its request. */
    boolean https();

    DownloadRequest request() throws InvalidRequestException;
  }

  /** An item whose request is already built (a URL of the command line, a file of a Metalink). */
  record Built(DownloadRequest request) implements Item {
    @Override
    public int priority() {
      return request.priority();
    }

    @Override
    public boolean https() {
      return "https".equalsIgnoreCase(request.uri().getScheme());
    }
  }

  private final Braid braid;
  private final List<? extends Item> items;
  private final int window;
  private final Map<Integer, Download> open = new ConcurrentHashMap<>();
  private final BlockingQueue<Outcome> ended = new LinkedBlockingQueue<>();
  private int completed;
  private int failed;
  private int firstFailure = -1;
  private int exitCode = ExitCode.OK;
  private volatile boolean stopping;

  BatchRun(Braid braid, List<? extends Item> items, int window) {
    this.braid = braid;
    this.items = items;
    this.window = window;
  }

  /** Submits the batch and returns once every download ended; {@code reporter} draws meanwhile. */
  void run(BatchReporter reporter) throws DownloadException, InterruptedException {
    int[] order = IntStream.range(0, items.size()).boxed()
        .sorted(Comparator.comparingInt((Integer i) -> items.get(i).priority()).reversed())
        .mapToInt(Integer::intValue).toArray();
    int next = 0;
    while ((next < order.length && !stopping) || !open.isEmpty()) {
      while (next < order.length && open.size() < window && !stopping) {
        submit(order[next++]);
      }
      for (Outcome o = ended.poll(100, TimeUnit.MILLISECONDS); o != null; o = ended.poll()) {
        open.remove(o.index);
        count(o);
        reporter.ended(o.download, o.result, o.failure);
      }
      reporter.drawIfDue(this);
    }
  }

  private void submit(int index) throws DownloadException {
    Download d = braid.submit(items.get(index).request());
    open.put(index, d);
    d.result().whenComplete((r, e) -> ended.add(new Outcome(index, d, r, e == null ? null : BatchReporter.cause(e))));
  }

  private void count(Outcome o) {
    if (o.failure == null) {
      completed++;
      return;
    }
    failed++;
    // the exit code is that of the first failure in list order, whatever order they ended in
    if (firstFailure < 0 || o.index < firstFailure) {
      firstFailure = o.index;
      exitCode = o.failure instanceof DownloadException de ? ExitCode.of(de) : ExitCode.INTERNAL;
    }
  }

  /** How one download of the batch ended: its result, or the reason it failed. */
  private record Outcome(int index, Download download, DownloadResult result, Throwable failure) {}

  /**
   * Submits no more and returns the downloads submitted and not ended yet, for a Ctrl-C to
   * pause; {@link #run} then returns once they ended.
   */
  Collection<Download> stop() {
    stopping = true;
    return List.copyOf(open.values());
  }

  int size() {
    return items.size();
  }

  int completed() {
    return completed;
  }

  int failed() {
    return failed;
  }

  /** 0 when all completed, else that of the first failure in list order. */
  int exitCode() {
    return exitCode;
  }

  /** The status line: counts, active downloads and their speed. */
  String status() {
    long active = 0;
    double speed = 0;
    for (Download d : open.values()) {
      if (d.state() == DownloadState.ACTIVE) {
        active++;
        speed += d.progress().bytesPerSecond();
      }
    }
    return String.format(Locale.ROOT, "%d/%d done%s, %d active, %s/s", completed, items.size(),
        failed > 0 ? ", " + failed + " failed" : "", active, Units.bytes(speed));
  }
}
