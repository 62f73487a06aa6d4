package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadResult;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code braid get URL}: download one file, resuming what an earlier run left. */
@Command(name = "get", mixinStandardHelpOptions = true,
    description = "Download URL over several connections. Run the same command again to resume.")
final class GetCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "URL", description = "http or https URL")
  String url;

  @ArgGroup(exclusive = true)
  Target target = new Target();

  static final class Target {
    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "write to FILE")
    Path file;

    @Option(names = {"-d", "--dir"}, paramLabel = "DIR", description = "write into DIR under the server's name (default: .)")
    Path dir;
  }

  @Option(names = {"-c", "--connections"}, paramLabel = "N|auto", converter = ConnectionsConverter.class,
      description = "connections: a fixed count 1-64, or auto to follow the observed throughput (default: auto)")
  OptionalInt connections = OptionalInt.empty();

  @Option(names = "--max-connections", paramLabel = "N",
      description = "cap of the automatic count, 1-64 (default: ${DEFAULT-VALUE})")
  int maxConnections = DownloadRequest.DEFAULT_MAX_CONNECTIONS;

  @Option(names = "--min-split-size", paramLabel = "SIZE", converter = ByteSizeConverter.class,
      description = "never split off less than SIZE (default: 1M)")
  long minSplit = DownloadRequest.DEFAULT_MIN_SPLIT;

  @Option(names = "--overwrite", description = "replace an existing target file")
  boolean overwrite;

  @Option(names = "--no-restart", description = "if the remote file changed, fail (exit 5) instead of downloading it again")
  boolean noRestart;

  @Option(names = "--state-db", paramLabel = "FILE", description = "state database (default: $XDG_DATA_HOME/braid/state.db, else ~/.local/share/braid/state.db)")
  Path stateDb;

  @Option(names = "--connect-timeout", paramLabel = "SECONDS", description = "TCP connect limit (default: ${DEFAULT-VALUE})")
  double connectTimeout = 15;

  @Option(names = "--read-timeout", paramLabel = "SECONDS", description = "drop a connection silent this long and retry its range (default: ${DEFAULT-VALUE})")
  double readTimeout = 30;

  @Option(names = "--retries", paramLabel = "N", description = "failed tries in a row before giving up (default: ${DEFAULT-VALUE})")
  int retries = 5;

  @Option(names = "--lowest-speed", paramLabel = "SIZE", converter = ByteSizeConverter.class,
      description = "replace a connection slower than SIZE per second for 3 s (default: 1K; 0: only stalls)")
  long lowestSpeed = 1024;

  @Option(names = "--ca-cert", paramLabel = "FILE", description = "also trust the CA certificates in this PEM file (a private CA)")
  Path caCert;

  @Option(names = "--allow-insecure-redirects", description = "follow a redirect from https to plain http (refused by default)")
  boolean allowDowngrade;

  @Option(names = {"-q", "--quiet"}, description = "print nothing but errors")
  boolean quiet;

  @Option(names = "--debug", description = "print each change of the connection count and why, and stack traces with errors")
  boolean debug;

  @Override
  public Integer call() {
    PrintStream err = System.err;
    try {
      DownloadRequest.Builder rb = DownloadRequest.builder(url)
          .file(target.file).directory(target.dir).maxConnections(maxConnections).minSplitSize(minSplit)
          .overwrite(overwrite).restartIfChanged(!noRestart);
      connections.ifPresent(rb::connections);
      DownloadRequest request = rb.build();
      Braid.Builder builder = Braid.builder()
          .connectTimeout(seconds(connectTimeout)).readTimeout(seconds(readTimeout)).maxRetries(retries)
          .allowHttpsToHttpRedirects(allowDowngrade).lowestSpeed(lowestSpeed);
      if (stateDb != null) {
        builder.stateDatabase(stateDb);
      }
      if (caCert != null) {
        builder.caCertificates(caCert);
      }
      try (Braid braid = builder.build()) {
        Download download = braid.start(request);
        Thread stopper = pauseOnShutdown(download, quiet ? null : err);
        try {
          new ProgressReporter(err, ProgressReporter.detect(quiet), debug).follow(download);
        } finally {
          removeHook(stopper);
        }
        DownloadResult r = download.result().join();
        if (!quiet) {
          err.println(Summary.of(r, download.restartReason()));
        }
        return ExitCode.OK;
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

  private static Duration seconds(double s) {
    return Duration.ofMillis((long) (s * 1000));
  }

  /** Ctrl-C or SIGTERM: stop the connections and record progress before the JVM exits. */
  private static Thread pauseOnShutdown(Download download, PrintStream err) {
    Thread hook = new Thread(() -> {
      download.pause();
      try {
        download.result().handle((r, e) -> null).get(10, TimeUnit.SECONDS);
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
