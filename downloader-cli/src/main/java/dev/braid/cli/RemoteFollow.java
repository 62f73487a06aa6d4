package dev.braid.cli;

import dev.braid.core.DownloadResult;
import dev.braid.core.FailureKind;
import dev.braid.core.Progress;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Follows downloads added to a daemon to their ends, printing what an in-process get prints: ends
 * are heard as aria2's notifications; the live line, --json's progress and each end's outcome
 * come from {@code braid.tellEntry}, asked for the downloads heard starting each period and for
 * all of them now and then. Runs on the command's thread; {@code open} is shared with the Ctrl-C
 * hook, which pauses what is still open.
 */
final class RemoteFollow {
  /**
   * How often the downloads not heard starting are looked at: one can end unannounced only when
   * another client pauses it while it waits (aria2 sends no onDownloadPause for that).
   */
  private static final Duration WAITING_LOOK = Duration.ofSeconds(5);

  private final RpcClient rpc;
  private final BlockingQueue<RpcClient.Notification> heard;
  private final Set<String> open;
  private final Map<String, String> urls;
  private final Caller caller;
  private final PrintStream err;
  private final boolean quiet;
  private final boolean json;
  private final Duration progressInterval;
  private final String outageHint;

  RemoteFollow(RpcClient rpc, BlockingQueue<RpcClient.Notification> heard, Set<String> open, Map<String, String> urls,
      Caller caller, boolean quiet, boolean json, Duration progressInterval, String outageHint) {
    this.rpc = rpc;
    this.heard = heard;
    this.open = open;
    this.urls = urls;
    this.caller = caller;
    this.err = caller.err();
    this.quiet = quiet;
    this.json = json;
    this.progressInterval = progressInterval;
    this.outageHint = outageHint;
  }

  /** Follows {@code gids} (in the order they were added) to their ends; the exit code (the first failure's). */
  int follow(List<String> gids, boolean single) throws IOException, RpcClient.RpcError, InterruptedException {
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < gids.size(); i++) {
      index.put(gids.get(i), i);
    }
    int[] codes = new int[gids.size()];
    int completed = 0;
    int failed = 0;
    ProgressReporter.Mode mode = json ? ProgressReporter.Mode.QUIET : ProgressReporter.detect(quiet, caller);
    BatchReporter line = new BatchReporter(err, mode, !single, caller.columns());
    long period = mode == ProgressReporter.Mode.TERMINAL ? 250 : json ? progressInterval.toMillis() : 1_000;
    long nextLook = System.nanoTime();
    long nextWaitingLook = nextLook;
    // heard starting and not yet ended: only these move, so only these are looked at each period
    Set<String> started = new LinkedHashSet<>();
    while (!open.isEmpty()) {
      RpcClient.Notification n = heard.poll(Math.max(20, period), TimeUnit.MILLISECONDS);
      // the downloads heard ending, with the notification that said so (null: found by a look)
      Map<String, String> ending = new java.util.LinkedHashMap<>();
      for (; n != null; n = heard.poll()) {
        if (!open.contains(n.gid())) {
          continue;
        }
        if (n.method().equals("aria2.onDownloadStart")) {
          started.add(n.gid());
          if (json) {
            emit(caller.out(), event("started", n.gid(), rpc.call("braid.tellEntry", n.gid())));
          }
        } else {
          ending.put(n.gid(), n.method());
        }
      }
      long now = System.nanoTime();
      if (now - nextLook >= 0) {
        nextLook = now + TimeUnit.MILLISECONDS.toNanos(period);
        // the live line and --json's progress need the running ones; the rest only now and then (for
        // an end no notification announces), as a batch may hold thousands
        boolean all = single || now - nextWaitingLook >= 0;
        if (all) {
          nextWaitingLook = now + WAITING_LOOK.toNanos();
        }
        List<String> looked = List.copyOf(all ? open : started);
        List<RpcValue> entries = new ArrayList<>();
        for (Map.Entry<String, Optional<RpcValue>> look : entries(rpc, looked).entrySet()) {
          String gid = look.getKey();
          Optional<RpcValue> e = look.getValue();
          if (e.isEmpty() || ended(e.get())) {
            ending.putIfAbsent(gid, null);
          } else {
            entries.add(e.get());
            if (json && "active".equals(e.get().path("state").asText())) {
              RpcValue p = e.get();
              emit(caller.out(), event("progress", gid, p).put("done", p.path("done").asLong()).put("length", p.path("length").asLong())
                  .put("bytes_per_second", p.path("bytesPerSecond").asDouble()).put("connections", p.path("connections").asInt()));
            }
          }
        }
        int done = completed;
        int bad = failed;
        line.drawIfDue(() -> single && entries.size() == 1 ? singleLine(entries.get(0)) : status(done, gids.size(), bad, entries));
      }
      List<String> toLook = new ArrayList<>();
      for (Map.Entry<String, String> end : ending.entrySet()) {
        if (quiet && !json && "aria2.onDownloadComplete".equals(end.getValue())) {
          // a completion says all that a quiet get prints of it (nothing) and its exit code
          open.remove(end.getKey());
          started.remove(end.getKey());
          codes[index.get(end.getKey())] = ExitCode.OK;
          completed++;
        } else {
          toLook.add(end.getKey());
        }
      }
      for (Map.Entry<String, Optional<RpcValue>> end : entries(rpc, toLook).entrySet()) {
        String gid = end.getKey();
        Optional<RpcValue> e = end.getValue();
        if (e.isPresent() && !ended(e.get())) {
          continue;
        }
        open.remove(gid);
        started.remove(gid);
        int code = e.map(RemoteFollow::exitCode).orElse(ExitCode.REMOVED);
        codes[index.get(gid)] = code;
        if (code == ExitCode.OK) {
          completed++;
        } else {
          failed++;
        }
        report(line, gid, e, code, single);
      }
    }
    line.clear();
    if (!single && !quiet && !json) {
      err.println("braid: " + completed + " of " + gids.size() + " downloads completed"
          + (failed > 0 ? ", " + failed + " failed" : ""));
    }
    for (int c : codes) {
      if (c != ExitCode.OK) {
        return c;
      }
    }
    return ExitCode.OK;
  }

  /** The entries of {@code gids}, in their order, asked in one call; empty for one removed from the queue. */
  private static Map<String, Optional<RpcValue>> entries(RpcClient rpc, List<String> gids) throws IOException,
      InterruptedException, RpcClient.RpcError {
    Map<String, Optional<RpcValue>> out = new java.util.LinkedHashMap<>();
    if (gids.isEmpty()) {
      return out;
    }
    List<Object> answers = rpc.callEach("braid.tellEntry", gids);
    for (int i = 0; i < gids.size(); i++) {
      Object a = answers.get(i);
      if (a instanceof RpcClient.RpcError e) {
        if (!e.getMessage().contains("is not found")) {
          throw e;
        }
        // removed from the queue (braid remove, aria2.remove)
        out.put(gids.get(i), Optional.empty());
      } else {
        out.put(gids.get(i), Optional.of((RpcValue) a));
      }
    }
    return out;
  }

  /** The progress line of one download: its progress, or, waiting out an outage in the daemon, until when. */
  private static String singleLine(RpcValue e) {
    return OutageText.of(e).map(w -> "waiting: " + w).orElseGet(() -> ProgressReporter.format(progress(e)));
  }

  private static boolean ended(RpcValue e) {
    String s = e.path("state").asText();
    return s.equals("completed") || s.equals("failed") || s.equals("paused");
  }

  /** The exit code of an ended download: its failure kind's, as in-process. */
  static int exitCode(RpcValue e) {
    return switch (e.path("state").asText()) {
      case "completed" -> ExitCode.OK;
      case "paused" -> ExitCode.INTERRUPTED;
      default -> ExitCode.of(FailureKind.ofId(e.path("errorKind").asText()));
    };
  }

  private void report(BatchReporter line, String gid, Optional<RpcValue> entry, int code, boolean single) {
    String why = entry.map(e -> e.path("state").asText().equals("paused") ? "paused"
        : e.path("error").asText("failed") + (e.path("errorPasses").asText().equals("true") ? outageHint : ""))
        .orElse("removed from the queue while it ran");
    if (json) {
      Json j = entry.isPresent() ? event(code == ExitCode.OK ? "completed" : code == ExitCode.INTERRUPTED ? "paused" : "failed",
          gid, entry.get()) : new Json().put("event", "failed").put("id", Long.parseUnsignedLong(gid, 16)).put("url", urls.get(gid));
      if (code == ExitCode.OK) {
        RpcValue e = entry.get();
        j.put("file", e.path("file").asText()).put("length", e.path("length").asLong()).put("fetched", e.path("fetched").asLong())
            .put("reused", e.path("reused").asLong()).put("seconds", e.path("elapsedMillis").asLong() / 1000.0);
      } else if (code == ExitCode.INTERRUPTED) {
        j.put("done", entry.get().path("done").asLong());
      } else {
        j.put("error", why).put("exit_code", code);
      }
      emit(caller.out(), j);
      return;
    }
    if (code == ExitCode.OK) {
      if (!quiet) {
        line.line(Summary.of(result(entry.get()), Optional.ofNullable(entry.get().path("restartReason").textValue())));
      }
    } else if (single) {
      line.line("braid: " + why);
    } else {
      line.line("braid: failed " + urls.get(gid) + ": " + why);
    }
  }

  private static DownloadResult result(RpcValue e) {
    return new DownloadResult(Path.of(e.path("file").asText()), e.path("length").asLong(), e.path("fetched").asLong(),
        e.path("reused").asLong(), Duration.ofMillis(e.path("elapsedMillis").asLong()), e.path("restarts").asInt());
  }

  static Progress progress(RpcValue e) {
    return new Progress(e.path("length").asLong(), e.path("done").asLong(), e.path("bytesPerSecond").asDouble(),
        e.path("connections").asInt(), Duration.ZERO, List.of());
  }

  private static String status(int completed, int size, int failed, List<RpcValue> entries) {
    long active = 0;
    double speed = 0;
    for (RpcValue e : entries) {
      if ("active".equals(e.path("state").asText())) {
        active++;
        speed += e.path("bytesPerSecond").asDouble();
      }
    }
    return String.format(Locale.ROOT, "%d/%d done%s, %d active, %s/s", completed, size,
        failed > 0 ? ", " + failed + " failed" : "", active, Units.bytes(speed));
  }

  static Json event(String name, String gid, RpcValue e) {
    return new Json().put("event", name).put("id", e.path("id").asLong()).put("url", e.path("url").asText())
        .put("name", e.path("name").asText());
  }

  /** One --json event line to {@code out}; whole lines, whichever thread prints. */
  static void emit(PrintStream out, Json j) {
    synchronized (out) {
      out.println(j);
      out.flush();
    }
  }
}
