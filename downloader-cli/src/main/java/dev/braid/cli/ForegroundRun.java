package dev.braid.cli;

import dev.braid.core.Download;
import dev.braid.core.DownloadException;
import dev.braid.core.DownloadResult;
import java.util.concurrent.ExecutionException;

/** The end of {@code braid resume} and {@code braid refresh}: one queued download run here, in the foreground. */
final class ForegroundRun {
  private ForegroundRun() {}

  /** Resumes {@code d}, draws its progress until it ends, prints its summary; the exit code. */
  static int resume(Download d, boolean quiet) {
    try {
      d.resume();
      new ProgressReporter(System.err, ProgressReporter.detect(quiet, Caller.thisProcess()), false).follow(d);
      DownloadResult r = d.result().join();
      if (!quiet) {
        System.err.println(Summary.of(r, d.restartReason()));
      }
      return ExitCode.OK;
    } catch (ExecutionException e) {
      System.err.println("braid: " + e.getCause().getMessage());
      return e.getCause() instanceof DownloadException de ? ExitCode.of(de) : ExitCode.INTERNAL;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ExitCode.INTERRUPTED;
    }
  }
}
