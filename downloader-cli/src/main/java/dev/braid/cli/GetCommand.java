package dev.braid.cli;

import static dev.braid.cli.CommandModel.flag;
import static dev.braid.cli.CommandModel.isSet;
import static dev.braid.cli.CommandModel.option;
import static dev.braid.cli.CommandModel.repeatable;
import static dev.braid.cli.CommandModel.seconds;
import static dev.braid.cli.CommandModel.set;
import static dev.braid.cli.CommandModel.strings;

import dev.braid.core.Braid;
import dev.braid.core.ByteSize;
import dev.braid.core.Checksum;
import dev.braid.core.Download;
import dev.braid.core.DownloadException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadResult;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.rules.HostSettings;
import dev.braid.core.rules.Rules;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import picocli.CommandLine.Model.ArgGroupSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/** {@code braid get URL... | -i LIST}: download files, resuming what an earlier run left. */
final class GetCommand implements Callable<Integer> {
  private final PositionalParamSpec urls = PositionalParamSpec.builder().paramLabel("URL").arity("0..*")
      .type(List.class).auxiliaryTypes(String.class)
      .description("http or https URLs, or Metalink 4 files (.meta4: a local file or an http(s) URL)").build();

  private final OptionSpec inputList = option(Path.class, "LIST",
      "download the URLs listed in LIST (- for standard input): a URL per line, indented option lines"
          + " after it (out=, dir=, checksum=, mirror=, connections=, limit-rate=, priority=), # comments; a .meta4"
          + " entry (file or URL, with dir= only) adds the files of that Metalink",
      "-i", "--input-file").build();

  private final OptionSpec jobs = option(int.class, "N", "downloads at once (default: ${DEFAULT-VALUE})", "-j", "--jobs")
      .defaultValue(String.valueOf(Braid.DEFAULT_MAX_ACTIVE_DOWNLOADS)).build();

  private final OptionSpec file = option(Path.class, "FILE", "write to FILE (one URL only)", "-o", "--output").build();

  private final OptionSpec dir = option(Path.class, "DIR",
      "write into DIR under the server's name, made if missing (default: .)", "-d", "--dir").build();

  private final OptionSpec connections = option(OptionalInt.class, "N|auto",
      "connections per download: a fixed count 1-64, or auto to follow the observed throughput (default: auto)",
      "-c", "--connections").converters(new ConnectionsConverter()).defaultValue("auto").build();

  private final OptionSpec maxConnections = option(int.class, "N",
      "cap of the automatic count, 1-64 (default: ${DEFAULT-VALUE})", "--max-connections")
      .defaultValue(String.valueOf(DownloadRequest.DEFAULT_MAX_CONNECTIONS)).build();

  private final OptionSpec minSplit = option(long.class, "SIZE",
      "split off no less than SIZE (default: " + ByteSize.format(DownloadRequest.DEFAULT_MIN_SPLIT) + "), except from a connection that needs a second"
          + " or more for its last piece: half of it, down to 64K", "--min-split-size")
      .converters(new ByteSizeConverter()).defaultValue(String.valueOf(DownloadRequest.DEFAULT_MIN_SPLIT)).build();

  private final OptionSpec mirrors = repeatable("URL", "another URL of the same file (repeatable; one URL only)", "--mirror")
      .build();

  private final OptionSpec checksum = option(String.class, "ALGO=HEX",
      "verify the file before its final rename: sha-256, sha-512, sha-1, md5, sha3-256, blake2b-512 or blake3 (one URL only)",
      "--checksum").build();

  private final OptionSpec overwrite = flag("replace an existing target file; start over where a new URL cannot continue"
      + " a partial one", "--overwrite").build();
  private final OptionSpec urlRefreshCommand = option(String.class, "CMD", "when the link expires mid-way (HTTP 401, 403,"
      + " 404 or 410), run CMD with the old URL as its argument and continue from the URL it prints", "--url-refresh-command")
      .build();

  private final OptionSpec noRestart = flag("if the remote file changed, fail (exit 5) instead of downloading it again",
      "--no-restart").build();

  private final EngineOptions engine = new EngineOptions();

  /** The Metalinks among the arguments and the list; made by {@link #items()}. */
  private MetalinkSources metalinks;

  private final ConnectionOptions net = new ConnectionOptions();

  private final HookOptions hooks = new HookOptions();
  private final RulesOptions rulesFile = new RulesOptions();

  /** The per-host rules and categories, read once the arguments are parsed. */
  private Rules rules = Rules.NONE;
  private final MetalinkOptions metalink = new MetalinkOptions();

  private final OptionSpec quiet = flag("print nothing but errors", "-q", "--quiet").build();

  private final OptionSpec json = flag("print newline-delimited JSON events on standard output instead of progress", "--json")
      .build();

  private final OptionSpec progressInterval = option(double.class, "SECONDS",
      "seconds between JSON progress events (default: ${DEFAULT-VALUE})", "--progress-interval").defaultValue("1").build();

  private final OptionSpec detach = flag("only add the downloads to the queue and return: a running braid daemon (or a later"
      + " one, or braid resume) downloads them; prints each one's id, gid and URL", "--detach").build();

  private final OptionSpec debug = flag("print each change of the connection count and why, the download's notes"
      + " (mirrors left out, server quirks worked around), connection metrics at the end,"
      + " and stack traces with errors", "--debug").build();

  /** The daemon running a state database's queue, if any ({@link DaemonLink#find}). */
  private final Function<Path, Optional<DaemonLink.Endpoint>> daemons;

  GetCommand() {
    this(DaemonLink::find);
  }

  /**
   * A get that hands its downloads to the daemon {@code daemons} names: the demo's training run
   * names its own server, so that the class archive holds this command's path to a daemon.
   */
  GetCommand(Function<Path, Optional<DaemonLink.Endpoint>> daemons) {
    this.daemons = daemons;
  }

  /** The command's model; its values are read after picocli has parsed the arguments into it. */
  CommandSpec spec() {
    CommandSpec spec = CommandModel.command("get", this,
        "Download each URL (or each entry of a list) over several connections.", "Run the same command again to resume.");
    spec.addPositional(urls);
    for (OptionSpec o : List.of(inputList, jobs, connections, maxConnections, minSplit, mirrors, checksum, overwrite,
        urlRefreshCommand,
        noRestart, quiet, json, progressInterval, detach, debug)) {
      spec.addOption(o);
    }
    spec.addArgGroup(ArgGroupSpec.builder().exclusive(true).multiplicity("0..1").addArg(file).addArg(dir).build());
    engine.addTo(spec);
    net.addTo(spec);
    hooks.addTo(spec);
    rulesFile.addTo(spec);
    metalink.addTo(spec);
    GetHelp.applyTo(spec);
    return spec;
  }

  @Override
  public Integer call() {
    PrintStream err = System.err;
    try {
      net.validate();
      rules = rulesFile.load();
      List<BatchRun.Item> items = items();
      if (jobsAtOnce() < 1) {
        throw new InvalidRequestException("-j must be at least 1");
      }
      Optional<DaemonLink.Endpoint> daemon = daemons.apply(engine.stateAnchor());
      if (daemon.isPresent() && metalinks.anyPending()) {
        throw new InvalidRequestException("a Metalink URL is fetched by braid get itself, and a braid daemon runs this"
            + " state database: give the daemon a local .meta4 file instead");
      }
      if (daemon.isPresent()) {
        if (hooks.any()) {
          err.println("braid: the daemon runs the downloads and its own hooks (braid daemon --on-download-...);"
              + " the hooks given here do not run");
        }
        return new RemoteGet(daemon.get(), err, quiet(), json(), seconds(progressInterval))
            .run(net.forDaemon(requests(items)), items.size() == 1 && inputList() == null, isSet(detach));
      }
      if (engine.caCertificates() == null && !net.insecure() && items.stream().anyMatch(BatchRun.Item::https)) {
        // TLS is set up while the store and the client start, not after the first connect
        Braid.warmUpTls();
      }
      Braid.Builder builder = engine.builder().maxActiveDownloads(jobsAtOnce());
      net.applyTo(builder, System.getenv(), err);
      JsonEvents events = json() ? new JsonEvents(System.out) : null;
      hooks.applyTo(builder, events != null ? events::hookFailed : f -> err.println("braid: " + f));
      builder.hostRules(net.proxyGiven() ? rules.withoutProxies() : rules);
      try (Braid braid = builder.build()) {
        if (metalinks.anyPending()) {
          items.addAll(metalinks.fetchPending(braid));
        }
        if (isSet(detach)) {
          return enqueue(braid, items);
        }
        if (!quiet() && !json()) {
          EngineOptions.announceMetrics(braid, err);
        }
        if (json()) {
          // closing Braid sends the last events before this returns
          braid.listen(events, seconds(progressInterval));
        }
        if (items.size() == 1 && inputList() == null) {
          Download one = braid.submit(items.get(0).request());
          Thread stopper = pauseOnShutdown(() -> List.of(one), quiet() || json() ? null : err);
          try {
            return single(one, err);
          } finally {
            removeHook(stopper);
          }
        }
        BatchRun batch = new BatchRun(braid, items, window());
        Thread stopper = pauseOnShutdown(batch::stop, quiet() || json() ? null : err);
        try {
          return batch(batch, err);
        } finally {
          removeHook(stopper);
        }
      }
    } catch (DownloadException e) {
      return fail(err, e);
    } catch (ExecutionException e) {
      return e.getCause() instanceof DownloadException de ? fail(err, de) : internal(err, e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ExitCode.INTERRUPTED;
    } catch (RuntimeException e) {
      return internal(err, e);
    }
  }

  private static List<DownloadRequest> requests(List<BatchRun.Item> items) throws InvalidRequestException {
    List<DownloadRequest> out = new ArrayList<>();
    for (BatchRun.Item i : items) {
      out.add(i.request());
    }
    return out;
  }

  /** --detach without a daemon: into the queue only, claimed by nobody, for a daemon (or a fleet's workers) to take. */
  private int enqueue(Braid braid, List<BatchRun.Item> items) throws DownloadException {
    // get's --proxy goes along as each download's own, as it does to a running daemon
    for (DownloadRequest r : net.forQueue(requests(items))) {
      Download d = braid.enqueue(r);
      System.out.println(d.id() + " " + String.format(java.util.Locale.ROOT, "%016x", d.id()) + " " + d.url());
    }
    return ExitCode.OK;
  }

  private int single(Download download, PrintStream err) throws InterruptedException, ExecutionException {
    ProgressReporter.Mode mode = json() ? ProgressReporter.Mode.QUIET : ProgressReporter.detect(quiet());
    try {
      new ProgressReporter(err, mode, debug()).follow(download);
    } finally {
      if (debug()) {
        err.println(MetricsReport.of(download.metrics()));
      }
    }
    DownloadResult r = download.result().join();
    if (!quiet() && !json()) {
      err.println(Summary.of(r, download.restartReason()));
    }
    return ExitCode.OK;
  }

  private int batch(BatchRun batch, PrintStream err) throws InterruptedException, DownloadException {
    BatchReporter reporter = new BatchReporter(err, json() ? ProgressReporter.Mode.QUIET : ProgressReporter.detect(quiet()));
    batch.run(reporter);
    reporter.clear();
    if (!quiet() && !json()) {
      err.println("braid: " + batch.completed() + " of " + batch.size() + " downloads completed"
          + (batch.failed() > 0 ? ", " + batch.failed() + " failed" : ""));
    }
    return batch.exitCode();
  }

  /**
   * How many downloads of a batch are in the queue at once: enough beyond those running that a
   * free slot never waits for the next submission.
   */
  private int window() {
    return jobsAtOnce() + Math.max(jobsAtOnce(), 16);
  }

  /** The command line's URLs, then the list's entries, every one checked before anything starts. */
  private List<BatchRun.Item> items() throws DownloadException {
    if (inputList() == null && urls().isEmpty()) {
      throw new InvalidRequestException("no URL given (braid get URL, or braid get -i LIST)");
    }
    boolean many = inputList() != null || urls().size() > 1;
    if (many && (file() != null || checksum() != null || !mirrors().isEmpty())) {
      throw new InvalidRequestException("-o, --checksum and --mirror apply to one URL; give them per entry in a list (-i)");
    }
    if (urls().stream().anyMatch(MetalinkSources::names) && (file() != null || checksum() != null || !mirrors().isEmpty())) {
      throw new InvalidRequestException("-o, --checksum and --mirror do not apply to a Metalink, which names its files,"
          + " hashes and mirrors (use -d for the folder)");
    }
    metalinks = new MetalinkSources(metalink, this::defaults, quiet() || json() ? null : System.err);
    List<BatchRun.Item> out = new ArrayList<>();
    for (String url : urls()) {
      if (MetalinkSources.names(url)) {
        out.addAll(metalinks.add(url, dir()));
        continue;
      }
      DownloadRequest.Builder b = defaults(url).file(file()).mirrors(mirrors());
      if (checksum() != null) {
        b.checksum(Checksum.parse(checksum()));
      }
      out.add(new BatchRun.Built(b.build()));
    }
    if (inputList() != null) {
      InputList list = InputList.read(inputList(), dir(), this::defaults);
      out.addAll(list.entries());
      for (InputList.MetalinkLine m : list.metalinks()) {
        out.addAll(metalinks.add(m.source(), m.folder()));
      }
    }
    return out;
  }


  /** A request for {@code url}: the rules for its host first, then the options given here, which win. */
  private DownloadRequest.Builder defaults(String url) throws InvalidRequestException {
    Path folder = dir() != null ? dir() : rules.categoryFor(url).map(c -> c.folder()).orElse(null);
    DownloadRequest.Builder b = DownloadRequest.builder(url).directory(folder).overwrite(isSet(overwrite))
        .restartIfChanged(!isSet(noRestart));
    HostSettings host = rules.forUrl(url);
    host.applyTo(b);
    if (CommandModel.given(maxConnections) || host.maxConnections().isEmpty()) {
      set(maxConnections, () -> b.maxConnections(maxConnections.<Integer>getValue()));
    }
    set(minSplit, () -> b.minSplitSize(minSplit.<Long>getValue()));
    OptionalInt pinned = connections.getValue();
    if (pinned.isPresent()) {
      set(connections, () -> b.connections(pinned.getAsInt()));
    } else if (CommandModel.given(connections)) {
      b.adaptiveConnections();
    }
    if (host.userAgent().isPresent()) {
      net.userAgentTo(b);
    }
    String refresher = urlRefreshCommand.getValue();
    if (refresher != null) {
      b.urlRefresher(new CommandRefresher(refresher));
    }
    net.applyTo(b);
    return b;
  }

  private boolean quiet() {
    return isSet(quiet);
  }

  private boolean json() {
    return isSet(json);
  }

  private boolean debug() {
    return isSet(debug);
  }

  private int jobsAtOnce() {
    return jobs.<Integer>getValue();
  }

  private List<String> urls() {
    return strings(urls);
  }

  private List<String> mirrors() {
    return strings(mirrors);
  }

  private Path inputList() {
    return inputList.getValue();
  }

  private Path file() {
    return file.getValue();
  }

  private Path dir() {
    return dir.getValue();
  }

  private String checksum() {
    return checksum.getValue();
  }

  /** Ctrl-C or SIGTERM: stop the connections and record progress before the JVM exits. */
  private static Thread pauseOnShutdown(Supplier<Collection<Download>> stop, PrintStream err) {
    Thread hook = new Thread(() -> {
      Collection<Download> batch = stop.get();
      batch.forEach(Download::pause);
      try {
        for (Download d : batch) {
          d.result().handle((r, e) -> null).get(10, TimeUnit.SECONDS);
        }
        if (err != null) {
          err.println();
          err.println("braid: interrupted; progress is saved, run the same command to resume");
        }
      } catch (Exception ignored) {
        // exiting anyway: whatever was recorded last is still a resumable state
      }
    }, "braid-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    return hook;
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the hook is already running and will finish the pause
    }
  }

  private int fail(PrintStream err, DownloadException e) {
    err.println("braid: " + e.getMessage());
    if (debug()) {
      e.printStackTrace(err);
    }
    return ExitCode.of(e);
  }

  private int internal(PrintStream err, Throwable t) {
    return internalError(err, t, debug());
  }

  /** Reports a bug: one line, and the stack trace with {@code --debug}. */
  static int internalError(PrintStream err, Throwable t, boolean debug) {
    err.println("braid: internal error: " + t);
    if (debug) {
      t.printStackTrace(err);
    } else {
      err.println("braid: run with --debug for details");
    }
    return ExitCode.INTERNAL;
  }
}
