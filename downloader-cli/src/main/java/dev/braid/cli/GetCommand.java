package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.Checksum;
import dev.braid.core.Download;
import dev.braid.core.DownloadException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadResult;
import dev.braid.core.InvalidRequestException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code braid get URL... | -i LIST}: download files, resuming what an earlier run left. */
@Command(name = "get", mixinStandardHelpOptions = true,
    description = {"Download each URL (or each entry of a list) over several connections.",
        "Run the same command again to resume."})
final class GetCommand implements Callable<Integer> {
  @Parameters(paramLabel = "URL", arity = "0..*", description = "http or https URLs")
  List<String> urls = new ArrayList<>();

  @Option(names = {"-i", "--input-file"}, paramLabel = "LIST",
      description = "download the URLs listed in LIST (- for standard input): a URL per line, indented option lines"
          + " after it (out=, dir=, checksum=, mirror=, connections=, limit-rate=, priority=), # comments")
  Path inputList;

  @Option(names = {"-j", "--jobs"}, paramLabel = "N", description = "downloads at once (default: ${DEFAULT-VALUE})")
  int jobs = 4;

  @ArgGroup(exclusive = true)
  Target target = new Target();

  static final class Target {
    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "write to FILE (one URL only)")
    Path file;

    @Option(names = {"-d", "--dir"}, paramLabel = "DIR", description = "write into DIR under the server's name, made if missing (default: .)")
    Path dir;
  }

  @Option(names = {"-c", "--connections"}, paramLabel = "N|auto", converter = ConnectionsConverter.class,
      description = "connections per download: a fixed count 1-64, or auto to follow the observed throughput (default: auto)")
  OptionalInt connections = OptionalInt.empty();

  @Option(names = "--max-connections", paramLabel = "N",
      description = "cap of the automatic count, 1-64 (default: ${DEFAULT-VALUE})")
  int maxConnections = DownloadRequest.DEFAULT_MAX_CONNECTIONS;

  @Option(names = "--min-split-size", paramLabel = "SIZE", converter = ByteSizeConverter.class,
      description = "split off no less than SIZE (default: 1M), except from a connection that needs a second"
          + " or more for its last piece: half of it, down to 64K")
  long minSplit = DownloadRequest.DEFAULT_MIN_SPLIT;

  @Option(names = "--mirror", paramLabel = "URL", description = "another URL of the same file (repeatable; one URL only)")
  List<String> mirrors = new ArrayList<>();

  @Option(names = "--checksum", paramLabel = "ALGO=HEX",
      description = "verify the file before its final rename: sha-256, sha-512, sha-1, md5, sha3-256, blake2b-512 or blake3 (one URL only)")
  String checksum;

  @Option(names = "--overwrite", description = "replace an existing target file")
  boolean overwrite;

  @Option(names = "--no-restart", description = "if the remote file changed, fail (exit 5) instead of downloading it again")
  boolean noRestart;

  @Mixin
  EngineOptions engine = new EngineOptions();

  @Mixin
  ConnectionOptions net = new ConnectionOptions();

  @Option(names = {"-q", "--quiet"}, description = "print nothing but errors")
  boolean quiet;

  @Option(names = "--json", description = "print newline-delimited JSON events on standard output instead of progress")
  boolean json;

  @Option(names = "--progress-interval", paramLabel = "SECONDS",
      description = "seconds between JSON progress events (default: ${DEFAULT-VALUE})")
  double progressInterval = 1;

  @Option(names = "--debug", description = "print each change of the connection count and why, connection metrics at the end, and stack traces with errors")
  boolean debug;

  @Override
  public Integer call() {
    PrintStream err = System.err;
    try {
      net.validate();
      List<BatchRun.Item> items = items();
      if (jobs < 1) {
        throw new InvalidRequestException("-j must be at least 1");
      }
      Braid.Builder builder = engine.builder().maxActiveDownloads(jobs);
      net.applyTo(builder, System.getenv(), err);
      try (Braid braid = builder.build()) {
        if (!quiet && !json) {
          EngineOptions.announceMetrics(braid, err);
        }
        if (json) {
          // closing Braid sends the last events before this returns
          braid.listen(new JsonEvents(System.out), Duration.ofMillis((long) (progressInterval * 1000)));
        }
        if (items.size() == 1 && inputList == null) {
          Download one = braid.submit(items.get(0).request());
          Thread stopper = pauseOnShutdown(() -> List.of(one), quiet || json ? null : err);
          try {
            return single(one, err);
          } finally {
            removeHook(stopper);
          }
        }
        BatchRun batch = new BatchRun(braid, items, window());
        Thread stopper = pauseOnShutdown(batch::stop, quiet || json ? null : err);
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

  private int single(Download download, PrintStream err) throws InterruptedException, ExecutionException {
    ProgressReporter.Mode mode = json ? ProgressReporter.Mode.QUIET : ProgressReporter.detect(quiet);
    try {
      new ProgressReporter(err, mode, debug).follow(download);
    } finally {
      if (debug) {
        err.println(MetricsReport.of(download.metrics()));
      }
    }
    DownloadResult r = download.result().join();
    if (!quiet && !json) {
      err.println(Summary.of(r, download.restartReason()));
    }
    return ExitCode.OK;
  }

  private int batch(BatchRun batch, PrintStream err) throws InterruptedException, DownloadException {
    BatchReporter reporter = new BatchReporter(err, json ? ProgressReporter.Mode.QUIET : ProgressReporter.detect(quiet));
    batch.run(reporter);
    reporter.clear();
    if (!quiet && !json) {
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
    return jobs + Math.max(jobs, 16);
  }

  /** The command line's URLs, then the list's entries, every one checked before anything starts. */
  private List<BatchRun.Item> items() throws InvalidRequestException {
    if (inputList == null && urls.isEmpty()) {
      throw new InvalidRequestException("no URL given (braid get URL, or braid get -i LIST)");
    }
    boolean many = inputList != null || urls.size() > 1;
    if (many && (target.file != null || checksum != null || !mirrors.isEmpty())) {
      throw new InvalidRequestException("-o, --checksum and --mirror apply to one URL; give them per entry in a list (-i)");
    }
    List<BatchRun.Item> out = new ArrayList<>();
    for (String url : urls) {
      DownloadRequest.Builder b = defaults(url).file(target.file).mirrors(mirrors);
      if (checksum != null) {
        b.checksum(Checksum.parse(checksum));
      }
      out.add(new RequestItem(b.build()));
    }
    if (inputList != null) {
      out.addAll(InputList.read(inputList, target.dir, this::defaults).entries());
    }
    return out;
  }

  /** A URL of the command line. */
  private record RequestItem(DownloadRequest request) implements BatchRun.Item {
    @Override
    public int priority() {
      return request.priority();
    }
  }

  private DownloadRequest.Builder defaults(String url) {
    DownloadRequest.Builder b = DownloadRequest.builder(url).directory(target.dir).maxConnections(maxConnections)
        .minSplitSize(minSplit).overwrite(overwrite).restartIfChanged(!noRestart);
    connections.ifPresent(b::connections);
    net.applyTo(b);
    return b;
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
    if (debug) {
      e.printStackTrace(err);
    }
    return ExitCode.of(e);
  }

  private int internal(PrintStream err, Throwable t) {
    err.println("braid: internal error: " + t);
    if (debug) {
      t.printStackTrace(err);
    } else {
      err.println("braid: run with --debug for details");
    }
    return ExitCode.INTERNAL;
  }
}
