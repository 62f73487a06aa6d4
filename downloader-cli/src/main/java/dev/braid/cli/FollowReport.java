package dev.braid.cli;

import dev.braid.client.DownloadView;
import dev.braid.core.DownloadResult;
import dev.braid.core.Progress;
import dev.braid.core.TransferMetrics;
import dev.braid.store.DownloadState;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code braid get} prints of the downloads a {@link ClientFollow} follows: the live line's
 * text, --json's progress, --debug's course and each end's outcome, as a line or a --json event.
 * Used by the command's thread; {@link #emit} by any.
 */
final class FollowReport {
  private final Caller caller;
  private final PrintStream err;
  private final GetOutput output;
  /** The URL of each download still followed, for the line of one that ends without a view. */
  private final Map<Long, String> urls;
  /** --debug: the single download's connection changes and notes, printed as they come. */
  private final DebugCourse course = new DebugCourse();

  FollowReport(Caller caller, GetOutput output, Map<Long, String> urls) {
    this.caller = caller;
    this.err = caller.err();
    this.output = output;
    this.urls = urls;
  }

  /** A look at a running download: --debug's course of a single one, --json's progress of an active one. */
  void running(BatchReporter line, DownloadView v, boolean single) {
    if (single && output.debug()) {
      course.print(line, v);
    }
    if (output.json() && v.state() == DownloadState.ACTIVE) {
      Progress p = v.progress();
      emit(caller.out(), event("progress", v).put("done", p.done()).put("length", p.length())
          .put("bytes_per_second", p.bytesPerSecond()).put("connections", p.connections()));
    }
  }

  /** The progress line of one download: its progress, or, waiting out an outage, until when. */
  static String singleLine(DownloadView v) {
    Progress p = v.progress();
    String kept = p.length() > 0 ? Units.bytes(p.done()) + " / " + Units.bytes(p.length()) + " kept" : Units.bytes(p.done()) + " kept";
    return OutageText.of(v).map(w -> "waiting: " + kept + "  " + w).orElseGet(() -> ProgressLine.format(p));
  }

  /** What the run that completed it did; from the view itself when the client could not tell (an older daemon). */
  private static DownloadResult result(DownloadView v) {
    return v.resultIfAny().orElseGet(() -> new DownloadResult(v.fileIfChosen().orElse(v.directory().resolve(v.name())),
        v.progress().length(), v.progress().done(), 0, v.progress().elapsed(), 0));
  }

  /** Prints the end of download {@code id}: its outcome, as a line or a --json event. */
  void end(BatchReporter line, long id, Optional<DownloadView> view, int code, boolean single) {
    if (single && output.debug() && view.isPresent()) {
      course.print(line, view.get());
      if (view.get().metrics() != TransferMetrics.NONE) {
        line.line(MetricsReport.of(view.get().metrics()));
      }
    }
    String why = view.map(v -> v.state() == DownloadState.PAUSED ? "paused"
        : (v.error() != null ? v.error() : "failed") + (v.failureIfAny().map(f -> f.passes()).orElse(false) ? output.outageHint() : ""))
        .orElse("removed from the queue while it ran");
    if (output.json()) {
      Json j = view.isPresent() ? event(code == ExitCode.OK ? "completed" : code == ExitCode.INTERRUPTED ? "paused" : "failed",
          view.get()) : new Json().put("event", "failed").put("id", id).put("url", urls.get(id));
      if (code == ExitCode.OK) {
        DownloadResult r = result(view.get());
        j.put("file", r.file().toString()).put("length", r.length()).put("fetched", r.bytesFetched())
            .put("reused", r.bytesReused()).put("seconds", r.elapsed().toMillis() / 1000.0);
        if (r.metrics() != TransferMetrics.NONE) {
          j.put("metrics", JsonEvents.metrics(r.metrics()));
        }
      } else if (code == ExitCode.INTERRUPTED) {
        j.put("done", view.get().progress().done());
      } else {
        j.put("error", why).put("exit_code", code);
      }
      emit(caller.out(), j);
      return;
    }
    if (code == ExitCode.OK) {
      if (!output.quiet()) {
        line.line(Summary.of(result(view.get()), Optional.ofNullable(view.get().restartReason())));
      }
    } else if (single) {
      line.line("braid: " + why);
      if (output.debug() && view.isPresent() && view.get().cause() != null) {
        view.get().cause().printStackTrace(err);
      }
    } else {
      line.line("braid: failed " + urls.get(id) + ": " + why);
    }
  }

  /** The live line of a batch: how many are done, failed and active, and their speed. */
  static String status(int completed, int size, int failed, List<DownloadView> views) {
    long active = 0;
    double speed = 0;
    for (DownloadView v : views) {
      if (v.state() == DownloadState.ACTIVE) {
        active++;
        speed += v.progress().bytesPerSecond();
      }
    }
    return String.format(Locale.ROOT, "%d/%d done%s, %d active, %s/s", completed, size,
        failed > 0 ? ", " + failed + " failed" : "", active, Units.bytes(speed));
  }

  static Json event(String name, DownloadView v) {
    return new Json().put("event", name).put("id", v.id()).put("url", v.url()).put("name", v.name());
  }

  /** One --json event line to {@code out}; whole lines, whichever thread prints. */
  static void emit(PrintStream out, Json j) {
    synchronized (out) {
      out.println(j);
      out.flush();
    }
  }
}
