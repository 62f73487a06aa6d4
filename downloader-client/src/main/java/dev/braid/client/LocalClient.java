package dev.braid.client;

import dev.braid.client.ClientException.Reason;
import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadListener;
import dev.braid.core.DownloadRequest;
import dev.braid.core.Fleet;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.KnownHost;
import dev.braid.core.QueueOrder;
import dev.braid.core.Registration;
import dev.braid.core.RunWindow;
import dev.braid.core.SpeedSchedule;
import dev.braid.core.StateStoreException;
import dev.braid.core.rules.Rules;
import dev.braid.store.DownloadState;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * The port over an engine in this process: a {@link Braid} the face built (its store, folder,
 * queue settings), which this client owns from then on and closes in {@link #close()}. Adds go
 * through {@link EngineAdds} (the face's host rules, folders made, one transaction), the rest
 * straight to the engine's handles.
 *
 * <p>Threads: one per {@link #follow} registration, which calls its consumer in order and ends
 * when the registration is closed; the rest runs on the caller's thread.
 */
public final class LocalClient implements BraidClient {
  /** follow hears states only: a progress sample once a day is as good as none. */
  private static final Duration NO_PROGRESS = Duration.ofDays(1);

  private final Braid braid;
  private final EngineAdds adds;
  /** What the last runs did, readable a moment after they ended. */
  private final EndedRuns ended;
  /** The followers' threads, ended by {@link #close} if their registrations were not closed. */
  private final Set<ExecutorService> tellers = ConcurrentHashMap.newKeySet();

  /**
   * A client of {@code braid}, which it closes with itself.
   *
   * @param braid the engine, built by the face
   * @param rules the host rules and categories every add applies ({@link Rules#NONE} for none)
   */
  public LocalClient(Braid braid, Rules rules) {
    this(braid, rules, FolderGuard.ANYWHERE);
  }

  /**
   * A client of {@code braid} whose adds write only where {@code folders} allows: the daemon's
   * RPC serves the port over one (and never closes it: the daemon closes its engine itself).
   *
   * @param braid the engine
   * @param rules the host rules and categories every add applies
   * @param folders where adds may write
   */
  public LocalClient(Braid braid, Rules rules, FolderGuard folders) {
    this.adds = new EngineAdds(braid, rules, folders);
    this.braid = braid;
    this.ended = new EndedRuns(braid);
  }

  @Override
  public List<Long> add(List<DownloadRequest> requests, boolean paused) throws ClientException {
    return adds.add(requests, paused);
  }

  @Override
  public List<Long> addMetalink(MetalinkAdd metalink, boolean paused) throws ClientException {
    return adds.addMetalink(metalink, paused);
  }

  @Override
  public List<DownloadView> page(Set<DownloadState> states, QueueOrder order, long offset, int limit) throws ClientException {
    if (limit < 1) {
      throw new ClientException(Reason.INVALID, "a page holds at least one download, not " + limit, null);
    }
    try {
      return braid.downloads(states, order, offset, limit).stream().map(DownloadViews::of).toList();
    } catch (StateStoreException e) {
      throw failed(e);
    }
  }

  @Override
  public Optional<DownloadView> download(long id) throws ClientException {
    try {
      return braid.download(id).map(DownloadViews::of);
    } catch (StateStoreException e) {
      throw failed(e);
    }
  }

  @Override
  public Map<DownloadState, Long> counts() throws ClientException {
    try {
      return braid.countByState();
    } catch (StateStoreException e) {
      throw failed(e);
    }
  }

  /**
   * Pauses; a resume right after takes effect, even while the run still winds down (the engine
   * keeps it for the run's end).
   */
  @Override
  public void pause(long id) throws ClientException {
    Download d = find(id);
    if (!d.state().settled()) {
      act(d::pause);
    }
  }

  /**
   * Resumes a paused or failed download, and a queued one no engine has taken (a detached add, one
   * whose process died): this engine claims it, as {@code braid resume} always did; one another
   * live process holds stays its own (the engine's claim refuses it). An active one is passed on
   * too: the engine resumes one whose run stops after a pause, and leaves one going on.
   */
  @Override
  public void resume(long id) throws ClientException {
    Download d = find(id);
    boolean waiting = d.state() == DownloadState.QUEUED && !braid.running().contains(d);
    if (d.state() == DownloadState.PAUSED || d.state() == DownloadState.FAILED || d.state() == DownloadState.ACTIVE
        || waiting) {
      act(d::resume);
    }
  }

  @Override
  public void remove(long id, boolean deleteFile) throws ClientException {
    Download d = find(id);
    act(() -> d.remove(deleteFile));
  }

  @Override
  public void changeUrl(long id, URI url) throws ClientException {
    Download d = find(id);
    try {
      d.changeUrl(url);
    } catch (InvalidRequestException | IllegalStateException e) {
      throw new ClientException(Reason.INVALID, "#" + id + ": " + e.getMessage(), e);
    } catch (StateStoreException e) {
      throw failed(e);
    }
  }

  /**
   * Each run's events once, as the daemon's notifications ({@link EventFilter}; the engine tells a
   * run's end once its result is there), on a thread of this follower's ("braid-client-follow"),
   * in order, so that a slow consumer never holds up the engine's event thread; closing the
   * registration stops the calls and ends the thread.
   */
  @Override
  public Registration follow(Consumer<DownloadEvent> events) {
    EventFilter filter = new EventFilter();
    ExecutorService teller = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "braid-client-follow");
      t.setDaemon(true);
      return t;
    });
    tellers.add(teller);
    Registration listening = braid.listen(new DownloadListener() {
      @Override
      public void stateChanged(Download download, DownloadState state) {
        filter.stateChanged(download.id(), state).ifPresent(kind -> tell(download, kind));
      }

      @Override
      public void removed(Download download) {
        filter.removed(download.id());
        tell(download, DownloadEvent.Kind.REMOVED);
      }

      /** Engine's event thread: hands the event to the teller's thread. */
      private void tell(Download download, DownloadEvent.Kind kind) {
        DownloadEvent event = new DownloadEvent(download.id(), kind);
        try {
          teller.execute(() -> events.accept(event));
        } catch (RejectedExecutionException closed) {
          // the follower closed its registration: it hears no more
        }
      }
    }, NO_PROGRESS);
    // after listening, so that none is missed: a run going on now is no download added paused
    braid.running().forEach(d -> filter.alreadyIn(d.id(), DownloadState.ACTIVE));
    return () -> {
      listening.close();
      teller.shutdownNow();
      tellers.remove(teller);
    };
  }

  @Override
  public GlobalOptions globalOptions() {
    return new GlobalOptions(braid.rateLimit(), braid.maxActiveDownloads(), braid.runWindows(), braid.speedSchedule(),
        braid.outageRetry());
  }

  /**
   * Applies what differs from the options as they stand, as the daemon's
   * {@code aria2.changeGlobalOption} does: live, and the schedules stored in the state database
   * for the next start (speed limit and active downloads are each face's own settings).
   */
  @Override
  public void changeGlobalOptions(GlobalOptions options) throws ClientException {
    GlobalOptions now = globalOptions();
    try {
      if (options.speedLimit() != now.speedLimit()) {
        braid.rateLimit(options.speedLimit());
      }
      if (options.maxActiveDownloads() != now.maxActiveDownloads()) {
        braid.maxActiveDownloads(options.maxActiveDownloads());
      }
      if (!options.outageRetry().equals(now.outageRetry())) {
        braid.outageRetry(options.outageRetry());
      }
      if (!options.runWindows().equals(now.runWindows())) {
        braid.runWindows(options.runWindows());
        braid.saveSetting(RunWindow.SETTING, RunWindow.toText(options.runWindows()));
      }
      if (!options.speedSchedule().equals(now.speedSchedule())) {
        braid.speedSchedule(options.speedSchedule());
        braid.saveSetting(SpeedSchedule.SETTING, options.speedSchedule().toString());
      }
    } catch (StateStoreException e) {
      throw failed(e);
    }
  }

  @Override
  public List<KnownHost> hosts(int limit) throws ClientException {
    if (limit < 1) {
      throw new ClientException(Reason.INVALID, "a list of hosts holds at least one, not " + limit, null);
    }
    try {
      return braid.knownHosts(limit);
    } catch (StateStoreException e) {
      throw failed(e);
    }
  }

  @Override
  public Fleet fleet() throws ClientException {
    try {
      return braid.fleet();
    } catch (StateStoreException e) {
      throw failed(e);
    }
  }

  /** Ends the followers' threads and closes the engine: what runs pauses with its progress recorded, and continues at the next start. */
  @Override
  public void close() {
    tellers.forEach(ExecutorService::shutdownNow);
    ended.close();
    braid.close();
  }

  private Download find(long id) throws ClientException {
    try {
      return braid.download(id).orElseThrow(() -> new ClientException(Reason.NOT_FOUND, "no download #" + id + " in the queue", null));
    } catch (StateStoreException e) {
      throw failed(e);
    }
  }

  private static void act(Runnable action) throws ClientException {
    try {
      action.run();
    } catch (StateStoreException e) {
      throw failed(e);
    }
  }

  private static ClientException failed(StateStoreException e) {
    return new ClientException(Reason.FAILED, e.getMessage(), e);
  }
}
