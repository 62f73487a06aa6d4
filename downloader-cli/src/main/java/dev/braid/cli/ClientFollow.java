package dev.braid.cli;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.DownloadEvent;
import dev.braid.client.DownloadView;
import dev.braid.core.DownloadResult;
import dev.braid.core.Progress;
import dev.braid.core.TransferMetrics;
import dev.braid.store.DownloadState;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Follows downloads added through a {@link BraidClient} to their ends, printing what {@code braid
 * get} prints: ends are heard as the client's events; the live line, --json's progress and each
 * end's outcome come from {@link BraidClient#download}, asked for the downloads heard starting each
 * period and for all of them now and then. Runs on the command's thread; {@code open} is shared
 * with the Ctrl-C hook, which pauses what is still open.
 */
final class ClientFollow {
  /**
   * How often the downloads not heard starting are looked at: one can end unannounced only when
   * another client pauses it while it waits (aria2 sends no onDownloadPause for that).
   */
  private static final Duration WAITING_LOOK = Duration.ofSeconds(5);
  /** How long a completed download's result is waited for (it follows the state by an instant). */
  private static final Duration RESULT_GRACE = Duration.ofSeconds(2);

  private final BraidClient client;
  private final BlockingQueue<DownloadEvent> heard;
  private final Set<Long> open;
  private final Map<Long, String> urls;
  private final Caller caller;
  private final PrintStream err;
  private final GetOutput output;
  /** --debug: the single download's connection changes and notes, printed as they come. */
  private final DebugCourse course = new DebugCourse();

  /** What a get follows: its downloads, added a window at a time by its {@link ClientGet}. */
  interface Batch {
    /** How many downloads the get has in all. */
    int size();

    /** The place in the get's list of download {@code id}, one {@link #refill} added; asked once, as it ends. */
    int index(long id);

    /** Adds the next downloads while fewer than its window are open; false once none are left to add. */
    boolean refill() throws ClientException, InterruptedException;
  }

  /**
   * {@code output}'s debug: a single download's connection changes, notes and connection metrics
   * are printed as they come, and its failure's stack trace (what the client's views carry of them).
   */
  ClientFollow(BraidClient client, BlockingQueue<DownloadEvent> heard, Set<Long> open, Map<Long, String> urls,
      Caller caller, GetOutput output) {
    this.client = client;
    this.heard = heard;
    this.open = open;
    this.urls = urls;
    this.caller = caller;
    this.err = caller.err();
    this.output = output;
  }

  /** Follows {@code batch}'s downloads to their ends; the exit code (that of the first failure in list order). */
  int follow(Batch batch, boolean single) throws ClientException, InterruptedException {
    int[] codes = new int[batch.size()];
    int completed = 0;
    int failed = 0;
    ProgressLine.Mode mode = output.json() ? ProgressLine.Mode.QUIET : ProgressLine.detect(output.quiet(), caller);
    BatchReporter line = new BatchReporter(err, mode, !single, caller.columns());
    long period = mode == ProgressLine.Mode.TERMINAL ? 250 : output.json() ? output.progressInterval().toMillis() : 1_000;
    long nextLook = System.nanoTime();
    long nextWaitingLook = nextLook;
    // heard starting and not yet ended: only these move, so only these are looked at each period
    Set<Long> started = new LinkedHashSet<>();
    // completed, their run's result not told yet (an engine says so an instant after the state): since when
    Map<Long, Long> resultDue = new HashMap<>();
    boolean more = batch.refill();
    while (more || !open.isEmpty()) {
      DownloadEvent n = heard.poll(resultDue.isEmpty() ? Math.max(20, period) : 20, TimeUnit.MILLISECONDS);
      // the downloads heard ending, with the event that said so (null: found by a look)
      Map<Long, DownloadEvent.Kind> ending = new LinkedHashMap<>();
      resultDue.keySet().forEach(id -> ending.put(id, null));
      for (; n != null; n = heard.poll()) {
        if (!open.contains(n.id())) {
          continue;
        }
        if (n.kind() == DownloadEvent.Kind.STARTED) {
          started.add(n.id());
          if (output.json()) {
            Optional<DownloadView> v = client.download(n.id());
            if (v.isPresent()) {
              emit(caller.out(), event("started", v.get()));
            }
          }
        } else {
          ending.put(n.id(), n.kind());
        }
      }
      long now = System.nanoTime();
      if (now - nextLook >= 0) {
        nextLook = now + TimeUnit.MILLISECONDS.toNanos(period);
        // the live line and --json's progress need the running ones; the rest only now and then (for
        // an end no event announces), as a batch may hold thousands
        boolean all = single || now - nextWaitingLook >= 0;
        if (all) {
          nextWaitingLook = now + WAITING_LOOK.toNanos();
        }
        List<DownloadView> views = new ArrayList<>();
        for (Map.Entry<Long, Optional<DownloadView>> look : views(List.copyOf(all ? open : started)).entrySet()) {
          Optional<DownloadView> v = look.getValue();
          if (v.isEmpty() || ended(v.get())) {
            ending.putIfAbsent(look.getKey(), null);
          } else {
            if (single && output.debug()) {
              course.print(line, v.get());
            }
            views.add(v.get());
            if (output.json() && v.get().state() == DownloadState.ACTIVE) {
              Progress p = v.get().progress();
              emit(caller.out(), event("progress", v.get()).put("done", p.done()).put("length", p.length())
                  .put("bytes_per_second", p.bytesPerSecond()).put("connections", p.connections()));
            }
          }
        }
        int done = completed;
        int bad = failed;
        line.drawIfDue(() -> single && views.size() == 1 ? singleLine(views.get(0)) : status(done, batch.size(), bad, views));
      }
      List<Long> toLook = new ArrayList<>();
      for (Map.Entry<Long, DownloadEvent.Kind> end : ending.entrySet()) {
        if (output.quiet() && !output.json() && end.getValue() == DownloadEvent.Kind.COMPLETED) {
          // a completion says all that a quiet get prints of it (nothing) and its exit code
          open.remove(end.getKey());
          started.remove(end.getKey());
          // a look may have seen it complete before its result was told: it ends here, not again next turn
          resultDue.remove(end.getKey());
          codes[batch.index(end.getKey())] = ExitCode.OK;
          urls.remove(end.getKey());
          completed++;
        } else {
          toLook.add(end.getKey());
        }
      }
      for (Map.Entry<Long, Optional<DownloadView>> end : views(toLook).entrySet()) {
        long id = end.getKey();
        Optional<DownloadView> v = end.getValue();
        if (v.isPresent() && (!ended(v.get()) || resultToCome(v.get(), resultDue))) {
          continue;
        }
        resultDue.remove(id);
        open.remove(id);
        started.remove(id);
        int code = v.map(ClientFollow::exitCode).orElse(ExitCode.REMOVED);
        codes[batch.index(id)] = code;
        if (code == ExitCode.OK) {
          completed++;
        } else {
          failed++;
        }
        report(line, id, v, code, single);
        // a long list's memory follows its window, not the list
        urls.remove(id);
      }
      more = more && batch.refill();
    }
    line.clear();
    if (!single && !output.quiet() && !output.json()) {
      err.println("braid: " + completed + " of " + batch.size() + " downloads completed"
          + (failed > 0 ? ", " + failed + " failed" : ""));
    }
    for (int c : codes) {
      if (c != ExitCode.OK) {
        return c;
      }
    }
    return ExitCode.OK;
  }

  /** The downloads {@code ids}, in their order; empty for one removed from the queue. */
  private Map<Long, Optional<DownloadView>> views(List<Long> ids) throws ClientException {
    Map<Long, Optional<DownloadView>> out = new LinkedHashMap<>();
    for (long id : ids) {
      out.put(id, client.download(id));
    }
    return out;
  }

  /** The progress line of one download: its progress, or, waiting out an outage, until when. */
  private static String singleLine(DownloadView v) {
    Progress p = v.progress();
    String kept = p.length() > 0 ? Units.bytes(p.done()) + " / " + Units.bytes(p.length()) + " kept" : Units.bytes(p.done()) + " kept";
    return OutageText.of(v).map(w -> "waiting: " + kept + "  " + w).orElseGet(() -> ProgressLine.format(p));
  }

  private static boolean ended(DownloadView v) {
    return v.state().settled();
  }

  /**
   * Whether {@code v} completed and its run's result should be looked for again: for {@link
   * #RESULT_GRACE} after it was first seen without one, then the view's own figures stand in.
   */
  private static boolean resultToCome(DownloadView v, Map<Long, Long> resultDue) {
    if (v.state() != DownloadState.COMPLETED || v.result() != null) {
      return false;
    }
    long now = System.nanoTime();
    long since = resultDue.computeIfAbsent(v.id(), id -> now);
    return now - since < RESULT_GRACE.toNanos();
  }

  /** What the run that completed it did; from the view itself when the client could not tell (an older daemon). */
  private static DownloadResult result(DownloadView v) {
    return v.resultIfAny().orElseGet(() -> new DownloadResult(v.fileIfChosen().orElse(v.directory().resolve(v.name())),
        v.progress().length(), v.progress().done(), 0, v.progress().elapsed(), 0));
  }

  /** The exit code of an ended download: its failure kind's, as in-process. */
  static int exitCode(DownloadView v) {
    return switch (v.state()) {
      case COMPLETED -> ExitCode.OK;
      case PAUSED -> ExitCode.INTERRUPTED;
      default -> v.failureIfAny().map(f -> ExitCode.of(f.kind())).orElse(ExitCode.INTERNAL);
    };
  }

  private void report(BatchReporter line, long id, Optional<DownloadView> view, int code, boolean single) {
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

  private static String status(int completed, int size, int failed, List<DownloadView> views) {
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
