package dev.braid.cli;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.DownloadEvent;
import dev.braid.client.DownloadView;
import dev.braid.core.DownloadRequest;
import dev.braid.core.Gid;
import dev.braid.core.Registration;
import dev.braid.store.DownloadState;
import java.io.PrintStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * {@code braid get} and {@code braid resume} through a {@link BraidClient}: the downloads are added
 * (or resumed) through the port and followed there ({@link ClientFollow}); the events are heard
 * from before the first add. Ctrl-C pauses this command's downloads wherever they run.
 *
 * <p>Threads: the calling thread adds, waits and prints; the client's event thread only queues
 * what it hears; the interrupt action (Ctrl-C) pauses what is open and waits, bounded, until it is.
 */
final class ClientGet {
  private static final Duration PAUSE_WAIT = Duration.ofSeconds(10);

  private final BraidClient client;
  private final Caller caller;
  private final PrintStream err;
  private final boolean quiet;
  private final boolean json;
  private final Duration progressInterval;
  private final String outageHint;
  private final BlockingQueue<DownloadEvent> heard = new LinkedBlockingQueue<>();
  private final Set<Long> open = ConcurrentHashMap.newKeySet();
  private final Map<Long, String> urls = new HashMap<>();

  /** {@code outageHint}: what a download failed by an outage adds to its error line ({@link OutageHint}). */
  ClientGet(BraidClient client, Caller caller, boolean quiet, boolean json, Duration progressInterval, String outageHint) {
    this.client = client;
    this.caller = caller;
    this.err = caller.err();
    this.quiet = quiet;
    this.json = json;
    this.progressInterval = progressInterval;
    this.outageHint = outageHint;
  }

  /** Adds the downloads and, unless {@code detach}, follows them to their ends; the exit code. */
  int run(List<DownloadRequest> requests, boolean single, boolean detach) throws ClientException, InterruptedException {
    Registration events = detach ? null : client.follow(heard::add);
    try {
      List<Long> ids;
      try {
        ids = client.add(requests, false);
      } catch (ClientException e) {
        if (e.reason() == ClientException.Reason.INVALID) {
          err.println("braid: the daemon refused the download: " + e.getMessage());
          return ExitCode.USAGE;
        }
        throw e;
      }
      for (int i = 0; i < ids.size(); i++) {
        long id = ids.get(i);
        if (detach) {
          caller.out().println(id + " " + Gid.of(id) + " " + requests.get(i).uri());
          continue;
        }
        open.add(id);
        urls.put(id, requests.get(i).uri().toString());
        if (json) {
          Optional<DownloadView> v = client.download(id);
          if (v.isPresent()) {
            ClientFollow.emit(caller.out(), ClientFollow.event("queued", v.get()));
          }
        }
      }
      return detach ? ExitCode.OK : followPausingOnExit(ids, single);
    } finally {
      if (events != null) {
        events.close();
      }
    }
  }

  /** {@code braid resume}: continues download {@code id} and follows it. */
  int resume(long id) throws ClientException, InterruptedException {
    DownloadView d = StoreCommand.find(client, id);
    if (d.state() == DownloadState.COMPLETED) {
      err.println("braid: download #" + id + " is already complete: " + d.fileIfChosen().map(Object::toString).orElse(""));
      return ExitCode.OK;
    }
    try (Registration events = client.follow(heard::add)) {
      client.resume(id);
      open.add(id);
      urls.put(id, d.url());
      return followPausingOnExit(List.of(id), true);
    }
  }

  private int followPausingOnExit(List<Long> ids, boolean single) throws ClientException, InterruptedException {
    Caller.Registration hook = caller.onInterrupt(this::pauseOpen);
    try {
      return new ClientFollow(client, heard, open, urls, caller, quiet, json, progressInterval, outageHint).follow(ids, single);
    } catch (ClientException lost) {
      if (lost.reason() != ClientException.Reason.UNREACHABLE) {
        throw lost;
      }
      // a daemon that stops records its downloads' progress: they are not lost, and the user must hear so
      int n = open.size();
      throw new ClientException(ClientException.Reason.UNREACHABLE, "lost the braid daemon before "
          + (n == 1 ? "this get's download" : n + " of this get's downloads") + " ended (" + lost.getMessage() + "); "
          + (n == 1 ? "it stays in its queue, its progress recorded, and continues"
          : "they stay in its queue, their progress recorded, and continue") + " when a daemon runs again or this get runs again",
          lost);
    } finally {
      hook.remove();
    }
  }

  /** Ctrl-C: pause this command's downloads and wait, bounded, until each has stopped and recorded its progress. */
  private void pauseOpen() {
    long deadline = System.nanoTime() + PAUSE_WAIT.toNanos();
    try {
      for (long id : Set.copyOf(open)) {
        client.pause(id);
      }
      for (long id : Set.copyOf(open)) {
        while (client.download(id).map(v -> !v.state().settled()).orElse(false) && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
      }
    } catch (ClientException | InterruptedException ended) {
      // already ended, or the daemon went away: nothing left to pause
    }
    if (!quiet && !json) {
      err.println();
      err.println("braid: interrupted; the daemon keeps the downloads paused, run the same command to resume");
    }
  }
}
