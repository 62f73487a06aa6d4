package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.BraidBuilder;
import dev.braid.core.Download;
import dev.braid.core.DownloadException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadResult;
import dev.braid.core.Gid;
import dev.braid.core.OutageRetry;
import dev.braid.core.rules.Rules;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.ExecutionException;

/**
 * Runs {@code braid get}'s downloads in this process, on an engine of its own: one download with a
 * progress line, a batch, or with {@code --detach} only entries in the queue. Confined to the
 * thread running the command; the engine's threads are the engine's, stopped by closing it. Never
 * in a daemon's relay ({@link Caller#engineHere()}).
 */
final class LocalGet {
  private final GetOptions options;
  private final Caller caller;
  private final PrintStream err;

  LocalGet(GetOptions options, Caller caller) {
    this.options = options;
    this.caller = caller;
    this.err = caller.err();
  }

  /** Downloads {@code items}, made by {@code requests}, under {@code rules}; the exit code. */
  int run(List<BatchRun.Item> items, GetRequests requests, Rules rules)
      throws DownloadException, InterruptedException, ExecutionException {
    EngineOptions engine = options.engine();
    ConnectionOptions net = options.net();
    if (engine.caCertificates() == null && !net.insecure() && items.stream().anyMatch(BatchRun.Item::https)) {
      // TLS is set up while the store and the client start, not after the first connect
      Braid.warmUpTls();
    }
    BraidBuilder builder = engine.builder().maxActiveDownloads(options.jobsAtOnce())
        .outageRetry(options.outage().policy(OutageRetry.NONE));
    net.applyTo(builder, System.getenv(), err);
    JsonEvents events = options.json() ? new JsonEvents(caller.out()) : null;
    options.hooks().applyTo(builder, events != null ? events::hookFailed : f -> err.println("braid: " + f));
    builder.hostRules(net.proxyGiven() ? rules.withoutProxies() : rules);
    try (Braid braid = builder.build()) {
      if (requests.metalinks().anyPending()) {
        items.addAll(requests.metalinks().fetchPending(braid));
      }
      if (options.detach()) {
        return enqueue(braid, items);
      }
      if (!options.quiet() && !options.json()) {
        EngineOptions.announceMetrics(braid, err);
      }
      if (options.json()) {
        // closing Braid sends the last events before this returns
        braid.listen(events, options.progressInterval());
      }
      if (items.size() == 1 && options.inputList() == null) {
        Download one = braid.submit(items.get(0).request());
        Caller.Registration stopper = ShutdownPause.install(caller, () -> List.of(one),
            options.quiet() || options.json() ? null : err);
        try {
          return single(one);
        } finally {
          stopper.remove();
        }
      }
      BatchRun batch = new BatchRun(braid, items, window());
      Caller.Registration stopper = ShutdownPause.install(caller, batch::stop, options.quiet() || options.json() ? null : err);
      try {
        return batch(batch);
      } finally {
        stopper.remove();
      }
    }
  }

  /** --detach without a daemon: into the queue only, claimed by nobody, for a daemon (or a fleet's workers) to take. */
  private int enqueue(Braid braid, List<BatchRun.Item> items) throws DownloadException {
    // get's --proxy goes along as each download's own, as it does to a running daemon
    for (DownloadRequest r : options.net().forQueue(GetRequests.of(items))) {
      Download d = braid.enqueue(r);
      caller.out().println(d.id() + " " + Gid.of(d.id()) + " " + d.url());
    }
    return ExitCode.OK;
  }

  private int single(Download download) throws InterruptedException, ExecutionException {
    try {
      new ProgressReporter(err, mode(), options.debug()).follow(download);
    } finally {
      if (options.debug()) {
        err.println(MetricsReport.of(download.metrics()));
      }
    }
    DownloadResult r = download.result().join();
    if (!options.quiet() && !options.json()) {
      err.println(Summary.of(r, download.restartReason()));
    }
    return ExitCode.OK;
  }

  private int batch(BatchRun batch) throws InterruptedException, DownloadException {
    BatchReporter reporter = new BatchReporter(err, mode(), true, caller.columns());
    batch.run(reporter);
    reporter.clear();
    if (!options.quiet() && !options.json()) {
      err.println("braid: " + batch.completed() + " of " + batch.size() + " downloads completed"
          + (batch.failed() > 0 ? ", " + batch.failed() + " failed" : ""));
    }
    return batch.exitCode();
  }

  /** How progress shows: not at all with --json, whose events are the progress. */
  private ProgressReporter.Mode mode() {
    return options.json() ? ProgressReporter.Mode.QUIET : ProgressReporter.detect(options.quiet(), caller);
  }

  /**
   * How many downloads of a batch are in the queue at once: enough beyond those running that a
   * free slot never waits for the next submission.
   */
  private int window() {
    return options.jobsAtOnce() + Math.max(options.jobsAtOnce(), 16);
  }
}
