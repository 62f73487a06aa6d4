package dev.braid.cli;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.DownloadEvent;
import dev.braid.client.DownloadView;
import dev.braid.core.DownloadRequest;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.Gid;
import dev.braid.core.Registration;
import dev.braid.store.DownloadState;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.stream.IntStream;

/**
 * {@code braid get}, {@code braid resume} and {@code braid refresh} through a {@link BraidClient},
 * whichever engine it reaches (a daemon's, or one this process built): the downloads are added (or
 * resumed) through the port, a window at a time, and followed there ({@link ClientFollow}); the
 * events are heard from before the first add. Ctrl-C pauses this command's downloads wherever they run.
 *
 * <p>Threads: the calling thread adds, waits and prints; the client's event thread only queues
 * what it hears; the interrupt action (Ctrl-C) pauses what is open and waits, bounded, until it is.
 */
final class ClientGet {
  private static final Duration PAUSE_WAIT = Duration.ofSeconds(10);

  private final BraidClient client;
  private final Caller caller;
  private final PrintStream err;
  private final GetOutput output;
  private final boolean here;
  private final BlockingQueue<DownloadEvent> heard = new LinkedBlockingQueue<>();
  private final Set<Long> open = ConcurrentHashMap.newKeySet();
  private final Map<Long, String> urls = new HashMap<>();
  /** Set by Ctrl-C (the interrupt action's thread): no more of the batch is added. */
  private volatile boolean stopping;

  /**
   * {@code output}: what the get prints ({@link GetOutput}); {@code here}: the client is an engine this process built, not a daemon's (what a refusal and a
   * running download mean).
   */
  ClientGet(BraidClient client, Caller caller, GetOutput output, boolean here) {
    this.client = client;
    this.caller = caller;
    this.err = caller.err();
    this.output = output;
    this.here = here;
  }

  /**
   * Adds the downloads and, unless {@code detach}, follows them to their ends; the exit code. At
   * most {@code window} of them are open at once: the next are added as others end, highest
   * priority first, then in list order (a long list's requests are built a window at a time).
   */
  int run(List<? extends GetItem> items, boolean single, boolean detach, int window)
      throws ClientException, InterruptedException {
    if (detach) {
      List<DownloadRequest> requests = new ArrayList<>();
      for (GetItem i : items) {
        requests.add(request(i));
      }
      List<Long> ids = add(requests);
      if (ids == null) {
        return ExitCode.USAGE;
      }
      for (int i = 0; i < ids.size(); i++) {
        caller.out().println(ids.get(i) + " " + Gid.of(ids.get(i)) + " " + requests.get(i).uri());
      }
      return ExitCode.OK;
    }
    try (Registration events = client.follow(heard::add)) {
      Window batch = new Window(items, window);
      return followPausingOnExit(batch, single);
    } catch (Refused refused) {
      return ExitCode.USAGE;
    }
  }

  /**
   * Adds {@code requests}; null when the daemon refused them (said here, as the daemon's words). A
   * refusal by an engine of this process is thrown: its cause is the engine's own exception.
   */
  private List<Long> add(List<DownloadRequest> requests) throws ClientException {
    try {
      return client.add(requests, false);
    } catch (ClientException e) {
      if (e.reason() == ClientException.Reason.INVALID && !here) {
        err.println("braid: the daemon refused the download: " + e.getMessage());
        return null;
      }
      throw e;
    }
  }

  private static DownloadRequest request(GetItem item) throws ClientException {
    try {
      return item.request();
    } catch (InvalidRequestException e) {
      throw new ClientException(ClientException.Reason.INVALID, e.getMessage(), e);
    }
  }

  /** The daemon refused a window's downloads (said already): the get ends with a usage error. */
  private static final class Refused extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Refused() {
      super(null, null, false, false);
    }
  }

  /** The get's downloads, added a window at a time; called on the command's thread only. */
  private final class Window implements ClientFollow.Batch {
    private final List<? extends GetItem> items;
    private final int window;
    /** The items' places in the order they are added. */
    private final int[] order;
    private final Map<Long, Integer> index = new HashMap<>();
    private int next;

    Window(List<? extends GetItem> items, int window) {
      this.items = items;
      this.window = window;
      // a window smaller than the list adds the highest priorities first, as a queue holding them all would start them
      this.order = window >= items.size() ? IntStream.range(0, items.size()).toArray()
          : IntStream.range(0, items.size()).boxed()
              .sorted(Comparator.comparingInt((Integer i) -> items.get(i).priority()).reversed())
              .mapToInt(Integer::intValue).toArray();
    }

    @Override
    public int size() {
      return items.size();
    }

    @Override
    public int index(long id) {
      return index.remove(id);
    }

    @Override
    public boolean refill() throws ClientException {
      int n = stopping ? 0 : Math.min(window - open.size(), order.length - next);
      if (n > 0) {
        List<DownloadRequest> requests = new ArrayList<>(n);
        for (int i = next; i < next + n; i++) {
          requests.add(request(items.get(order[i])));
        }
        List<Long> ids = add(requests);
        if (ids == null) {
          throw new Refused();
        }
        for (int k = 0; k < ids.size(); k++) {
          long id = ids.get(k);
          index.put(id, order[next + k]);
          urls.put(id, requests.get(k).uri().toString());
          open.add(id);
          if (output.json()) {
            Optional<DownloadView> v = client.download(id);
            if (v.isPresent()) {
              FollowReport.emit(caller.out(), FollowReport.event("queued", v.get()));
            }
          }
        }
        next += n;
      }
      return next < order.length && !stopping;
    }
  }

  /**
   * {@code braid resume} and {@code braid refresh}: continues download {@code id}, from {@code newUrl}
   * when given, and follows it. Over an engine this process just built, a download found running
   * is another braid process's and is refused (a daemon's running download is simply followed).
   */
  int resume(long id, URI newUrl) throws ClientException, InterruptedException {
    boolean activeIsAnotherProcess = here;
    DownloadView d = StoreCommand.find(client, id);
    if (d.state() == DownloadState.COMPLETED) {
      if (newUrl != null) {
        err.println("braid: download #" + id + " is already complete: there is nothing to refresh");
        return ExitCode.USAGE;
      }
      err.println("braid: download #" + id + " is already complete: " + d.fileIfChosen().map(Object::toString).orElse(""));
      return ExitCode.OK;
    }
    if (d.state() == DownloadState.ACTIVE && (activeIsAnotherProcess || newUrl != null)) {
      err.println("braid: download #" + id + " is being downloaded by " + (activeIsAnotherProcess ? "another braid process"
          : "the braid daemon") + (newUrl != null ? " (pause it first)" : ""));
      return ExitCode.LOCAL_IO;
    }
    try (Registration events = client.follow(heard::add)) {
      if (newUrl != null) {
        client.changeUrl(id, newUrl);
      }
      client.resume(id);
      return followPausingOnExit(new ClientFollow.Batch() {
        private boolean added;

        @Override
        public int size() {
          return 1;
        }

        @Override
        public int index(long any) {
          return 0;
        }

        @Override
        public boolean refill() {
          if (!added) {
            added = true;
            urls.put(id, d.url());
            open.add(id);
          }
          return false;
        }
      }, true);
    }
  }

  private int followPausingOnExit(ClientFollow.Batch batch, boolean single) throws ClientException, InterruptedException {
    Caller.Registration hook = caller.onInterrupt(this::pauseOpen);
    try {
      return new ClientFollow(client, heard, open, urls, caller, output)
          .follow(batch, single);
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
    stopping = true;
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
    if (!output.quiet() && !output.json()) {
      err.println();
      err.println("braid: interrupted; progress is saved, run the same command to resume");
    }
  }
}
