package dev.braid.cli;

import dev.braid.core.Download;
import dev.braid.core.DownloadException;
import dev.braid.core.DownloadListener;
import dev.braid.core.DownloadState;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * Shows a batch: a line per file as it completes or fails (on Braid's event thread), and a
 * summary line of the whole batch drawn by the waiting thread (redrawn on a terminal, every few
 * seconds in logs, never when quiet).
 */
final class BatchReporter implements DownloadListener {
  private final PrintStream out;
  private final ProgressReporter.Mode mode;
  private int lastWidth;

  BatchReporter(PrintStream out, ProgressReporter.Mode mode) {
    this.out = out;
    this.mode = mode;
  }

  @Override
  public synchronized void stateChanged(Download d, DownloadState state) {
    if (mode == ProgressReporter.Mode.QUIET && state != DownloadState.FAILED) {
      return;
    }
    if (state == DownloadState.COMPLETED) {
      d.result().thenAccept(r -> line(Summary.of(r, d.restartReason())));
    } else if (state == DownloadState.FAILED) {
      d.result().exceptionally(e -> {
        line("braid: failed " + d.url() + ": " + cause(e).getMessage());
        return null;
      });
    }
  }

  /** Blocks until every download ended, drawing the batch's line meanwhile. */
  void follow(List<Download> batch) throws InterruptedException {
    long period = TimeUnit.MILLISECONDS.toNanos(mode == ProgressReporter.Mode.TERMINAL ? 250 : 5_000);
    long nextDraw = System.nanoTime();
    while (batch.stream().anyMatch(d -> !d.result().isDone())) {
      if (System.nanoTime() >= nextDraw) {
        draw(status(batch));
        nextDraw = System.nanoTime() + period;
      }
      TimeUnit.MILLISECONDS.sleep(100);
    }
    clear();
  }

  private static String status(List<Download> batch) {
    long done = batch.stream().filter(d -> d.state() == DownloadState.COMPLETED).count();
    long failed = batch.stream().filter(d -> d.state() == DownloadState.FAILED).count();
    long active = batch.stream().filter(d -> d.state() == DownloadState.ACTIVE).count();
    double speed = batch.stream().filter(d -> d.state() == DownloadState.ACTIVE).mapToDouble(d -> d.progress().bytesPerSecond()).sum();
    return String.format(Locale.ROOT, "%d/%d done%s, %d active, %s/s", done, batch.size(),
        failed > 0 ? ", " + failed + " failed" : "", active, Units.bytes(speed));
  }

  private synchronized void draw(String line) {
    if (mode == ProgressReporter.Mode.QUIET) {
      return;
    }
    if (mode == ProgressReporter.Mode.TERMINAL) {
      out.print("\r" + line + " ".repeat(Math.max(0, lastWidth - line.length())));
      lastWidth = line.length();
    } else {
      out.println(line);
    }
    out.flush();
  }

  private synchronized void line(String text) {
    clear();
    out.println(text);
    out.flush();
  }

  private synchronized void clear() {
    if (mode == ProgressReporter.Mode.TERMINAL && lastWidth > 0) {
      out.print("\r" + " ".repeat(lastWidth) + "\r");
      lastWidth = 0;
      out.flush();
    }
  }

  static Throwable cause(Throwable e) {
    return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
  }

  /** The exit code of a finished batch: 0 when all completed, else that of the first failure in list order. */
  static int exitCode(List<Download> batch) {
    for (Download d : batch) {
      if (d.result().isCompletedExceptionally()) {
        Throwable t = d.result().handle((r, e) -> cause(e)).join();
        return t instanceof DownloadException de ? ExitCode.of(de) : ExitCode.INTERNAL;
      }
    }
    return ExitCode.OK;
  }
}
