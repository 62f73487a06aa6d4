package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.BraidBuilder;
import dev.braid.core.Download;
import dev.braid.core.DownloadException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.Gid;
import dev.braid.core.OutageRetry;
import dev.braid.core.rules.Rules;
import java.io.PrintStream;
import java.util.List;

/**
 * The engine {@code braid get} builds when no daemon runs its state database: its options applied
 * (connections, -j, outage retry, hooks, host rules), and what only such an engine does: queue
 * downloads for another engine ({@code --detach}). Never in a daemon's relay ({@link Caller#engineHere()}).
 */
final class LocalEngine {
  private final GetOptions options;
  private final Caller caller;

  LocalEngine(GetOptions options, Caller caller) {
    this.options = options;
    this.caller = caller;
  }

  /** The engine for {@code items} under {@code rules}, its metrics address announced; the caller closes it. */
  Braid build(List<GetItem> items, Rules rules) throws DownloadException {
    EngineOptions engine = options.engine();
    ConnectionOptions net = options.net();
    PrintStream err = caller.err();
    if (engine.caCertificates() == null && !net.insecure() && items.stream().anyMatch(GetItem::https)) {
      // TLS is set up while the store and the client start, not after the first connect
      Braid.warmUpTls();
    }
    BraidBuilder builder = engine.builder().maxActiveDownloads(options.jobsAtOnce())
        .outageRetry(options.outage().policy(OutageRetry.NONE));
    net.applyTo(builder, System.getenv(), err);
    PrintStream out = caller.out();
    options.hooks().applyTo(builder, options.json() ? f -> JsonEvents.hookFailed(out, f) : f -> err.println("braid: " + f));
    builder.hostRules(net.proxyGiven() ? rules.withoutProxies() : rules);
    Braid braid = builder.build();
    if (!options.quiet() && !options.json()) {
      EngineOptions.announceMetrics(braid, err);
    }
    return braid;
  }

  /** --detach without a daemon: into the queue only, claimed by nobody, for a daemon (or a fleet's workers) to take. */
  int enqueue(Braid braid, List<GetItem> items) throws DownloadException {
    // get's --proxy goes along as each download's own, as it does to a running daemon
    for (DownloadRequest r : options.net().forQueue(GetRequests.of(items))) {
      Download d = braid.enqueue(r);
      caller.out().println(d.id() + " " + Gid.of(d.id()) + " " + d.url());
    }
    return ExitCode.OK;
  }
}
