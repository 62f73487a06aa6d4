package dev.braid.cli;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.DownloadEvent;
import dev.braid.client.DownloadView;
import dev.braid.store.DownloadState;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Follows downloads added through a {@link BraidClient} to their ends, printing what {@code braid
 * get} prints ({@link FollowReport}): ends are heard as the client's events; the live line,
 * --json's progress and each end's outcome come from {@link BraidClient#download}, asked for the
 * downloads heard starting each period and for all of them now and then. Runs on the command's
 * thread; {@code open} is shared with the Ctrl-C hook, which pauses what is still open.
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
  private final FollowReport report;

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
    this.report = new FollowReport(caller, output, urls);
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
              FollowReport.emit(caller.out(), FollowReport.event("started", v.get()));
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
            report.running(line, v.get(), single);
            views.add(v.get());
          }
        }
        int done = completed;
        int bad = failed;
        line.drawIfDue(() -> single && views.size() == 1 ? FollowReport.singleLine(views.get(0))
            : FollowReport.status(done, batch.size(), bad, views));
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
        report.end(line, id, v, code, single);
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

  /** The exit code of an ended download: its failure kind's, as in-process. */
  static int exitCode(DownloadView v) {
    return switch (v.state()) {
      case COMPLETED -> ExitCode.OK;
      case PAUSED -> ExitCode.INTERRUPTED;
      default -> v.failureIfAny().map(f -> ExitCode.of(f.kind())).orElse(ExitCode.INTERNAL);
    };
  }
}
