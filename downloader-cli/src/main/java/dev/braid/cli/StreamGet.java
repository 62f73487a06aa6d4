package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.DownloadException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadStream;
import dev.braid.core.Progress;
import dev.braid.core.rules.Rules;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;

/**
 * {@code braid get URL -o -}: the file to standard output, in order, as it arrives
 * ({@link Braid#stream}), progress on standard error. Always in this process, never a daemon's:
 * the bytes must reach this process's standard output, and a stream keeps nothing a daemon could
 * resume. A reader that closes the pipe ends it quietly ({@link ExitCode#PIPE_CLOSED}); a Ctrl-C
 * ends it too (there is no progress to save).
 *
 * <p>Threads: the command's thread reads the stream and writes to standard output; the interrupt
 * action closes the stream, which makes a blocked read throw.
 */
final class StreamGet {
  /** How often a progress line is printed when standard error is no terminal. */
  private static final Duration LINES_EVERY = Duration.ofSeconds(2);
  private static final Duration REDRAW_EVERY = Duration.ofMillis(200);

  private final GetOptions options;
  private final Caller caller;
  private volatile boolean interrupted;

  StreamGet(GetOptions options, Caller caller) {
    this.options = options;
    this.caller = caller;
  }

  /** Whether {@code -o -} was given. */
  static boolean asked(GetOptions options) {
    return options.file() != null && options.file().toString().equals("-");
  }

  int run() throws DownloadException, InterruptedException {
    String refused = refusal();
    if (refused != null) {
      caller.err().println("braid: " + refused + " (see braid get --help)");
      return ExitCode.USAGE;
    }
    // in a daemon's relay this hands the command back: the bytes are for the client's standard output
    caller.engineHere();
    Rules rules = options.rulesFile().load();
    List<GetItem> items = new GetRequests(options, rules, caller).items();
    DownloadRequest request = items.get(0).request().toBuilder().file(null).sequential(true).build();
    LocalEngine engine = new LocalEngine(options, caller);
    try (Braid braid = engine.build(items, rules); DownloadStream stream = braid.stream(request)) {
      Caller.Registration hook = caller.onInterrupt(() -> {
        interrupted = true;
        stream.close();
      });
      try {
        return copy(stream);
      } finally {
        hook.remove();
      }
    }
  }

  /** Why this command line cannot stream, or null. */
  private String refusal() {
    if (options.inputList() != null || options.urls().size() != 1) {
      return "-o - writes one download to standard output: give exactly one URL and no -i list";
    }
    if (MetalinkSources.names(options.urls().get(0))) {
      return "-o - takes an http(s) URL, not a Metalink, which names files of its own";
    }
    if (options.detach()) {
      return "-o - cannot be detached: the bytes go to this command's standard output";
    }
    if (options.json()) {
      return "--json prints events on standard output, where -o - writes the file";
    }
    return null;
  }

  private int copy(DownloadStream stream) throws InterruptedException {
    PrintStream err = caller.err();
    ProgressLine.Mode mode = ProgressLine.detect(options.quiet(), caller);
    Duration every = mode == ProgressLine.Mode.TERMINAL ? REDRAW_EVERY : LINES_EVERY;
    ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
    OutputStream out = caller.data();
    long written = 0;
    long started = System.nanoTime();
    long shown = started;
    while (true) {
      int n;
      try {
        n = stream.read(buffer.clear());
      } catch (IOException e) {
        if (interrupted) {
          throw new InterruptedException("interrupted");
        }
        endLine(err, mode);
        return failed(err, e);
      }
      if (n < 0) {
        break;
      }
      try {
        out.write(buffer.array(), 0, n);
        if (out instanceof PrintStream p && p.checkError()) {
          throw new IOException("standard output closed");
        }
      } catch (IOException closedPipe) {
        // the reader has what it wanted (| head -c N): not an error of the download
        return ExitCode.PIPE_CLOSED;
      }
      written += n;
      long now = System.nanoTime();
      if (mode != ProgressLine.Mode.QUIET && now - shown >= every.toNanos()) {
        shown = now;
        show(err, mode, stream.progress());
      }
    }
    try {
      out.flush();
    } catch (IOException closedPipe) {
      return ExitCode.PIPE_CLOSED;
    }
    if (mode != ProgressLine.Mode.QUIET) {
      endLine(err, mode);
      Duration took = Duration.ofNanos(System.nanoTime() - started);
      err.println("braid: wrote " + Units.bytes(written) + " to standard output in " + Units.duration(took) + " ("
          + Units.bytes(written * 1e9 / Math.max(1, took.toNanos())) + "/s)");
    }
    return ExitCode.OK;
  }

  private static void show(PrintStream err, ProgressLine.Mode mode, Progress p) {
    if (mode == ProgressLine.Mode.TERMINAL) {
      err.print("\r\033[K" + ProgressLine.format(p));
      err.flush();
    } else {
      err.println(ProgressLine.format(p));
    }
  }

  private static void endLine(PrintStream err, ProgressLine.Mode mode) {
    if (mode == ProgressLine.Mode.TERMINAL) {
      err.println();
    }
  }

  /** The download failed (the bytes before the failure went out): its message and exit code. */
  private int failed(PrintStream err, IOException e) {
    if (e.getCause() instanceof DownloadException de) {
      err.println("braid: " + de.getMessage());
      if (options.debug()) {
        de.printStackTrace(err);
      }
      return ExitCode.of(de);
    }
    err.println("braid: " + e.getMessage());
    return ExitCode.LOCAL_IO;
  }
}
