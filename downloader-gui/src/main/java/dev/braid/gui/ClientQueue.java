package dev.braid.gui;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.DownloadView;
import dev.braid.client.GlobalOptions;
import dev.braid.core.DownloadRequest;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.Registration;
import dev.braid.core.RunWindow;
import dev.braid.core.SpeedSchedule;
import dev.braid.store.DownloadState;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * The queue the window drives, over a {@link BraidClient}: the same code whether the app runs
 * its own engine or is a client of a {@code braid daemon}. Every action and every read runs on
 * one background thread ("braid-gui-io", owned here, ended by {@link #close()}), so the FX
 * thread never waits on the store or the network. The window is shown the running downloads'
 * progress four times a second, the whole queue each second, and a download at once when the
 * client tells of an event or an action here changed it.
 */
final class ClientQueue implements AppQueue {
  private static final long TICK_MILLIS = 250;
  /** Every this many ticks the whole queue is read; the ticks between read the running ones. */
  private static final int SWEEP_EVERY = 4;

  private final BraidClient client;
  private final SettingsStore store;
  private final ViewPublisher shown;
  private final ScheduledExecutorService io;
  private final Registration following;
  private volatile GuiSettings settings;
  private volatile BiConsumer<String, String> problems = (title, text) -> {};
  /** io thread only. */
  private int ticks;
  /** io thread only: a lost engine is told once, not at every tick. */
  private boolean unreachable;

  private ClientQueue(BraidClient client, GuiSettings settings, SettingsStore store, SnapshotCoalescer out) throws ClientException {
    this.client = client;
    this.store = store;
    this.shown = new ViewPublisher(client, out);
    this.io = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "braid-gui-io");
      t.setDaemon(true);
      return t;
    });
    // the queue-wide options are the engine's: the window shows those it runs by
    this.settings = settings.withQueue(client.globalOptions());
    this.following = client.follow(e -> refreshLater(e.id()));
    io.scheduleWithFixedDelay(this::tick, 0, TICK_MILLIS, TimeUnit.MILLISECONDS);
  }

  /**
   * The window's queue over {@code client}, which it owns from now on ({@link #close()} closes it).
   * Blocking (it reads the engine's options): call it off the FX thread.
   *
   * @param settings the app's settings as stored
   * @param store where {@link #saveSettings} keeps the app's own settings
   */
  static ClientQueue open(BraidClient client, GuiSettings settings, SettingsStore store, SnapshotCoalescer out)
      throws ClientException {
    return new ClientQueue(client, settings, store, out);
  }

  @Override
  public void onProblem(BiConsumer<String, String> sink) {
    this.problems = sink;
  }

  /** Tells the window of a problem outside any action (a hook of the app's own engine), on the caller's thread. */
  void tell(String title, String text) {
    problems.accept(title, text);
  }

  @Override
  public Executor background() {
    return io;
  }

  @Override
  public GuiSettings settings() {
    return settings;
  }

  @Override
  public void add(AddRequest request) {
    io.execute(() -> {
      if (request.metalink() != null) {
        addMetalink(request.metalink(), request.folder());
      }
      // each URL's problem is its own; the valid ones are added together, in one step
      List<DownloadRequest> valid = new ArrayList<>();
      for (AddRequest.Entry e : request.entries()) {
        try {
          valid.add(AddRequests.of(e, request.folder(), settings, request.inOrder()));
        } catch (InvalidRequestException | IllegalArgumentException ex) {
          problems.accept("Cannot add " + e.url(), message(ex));
        }
      }
      if (valid.isEmpty()) {
        return;
      }
      try {
        for (long id : client.add(valid, false)) {
          shown.added(id);
        }
      } catch (ClientException ex) {
        problems.accept(valid.size() == 1 ? "Cannot add " + valid.get(0).uri() : "Cannot add " + valid.size() + " downloads",
            message(ex));
      }
    });
  }

  /** io thread: one download per file of the Metalink. */
  private void addMetalink(MetalinkSource source, Path folder) {
    try {
      for (long id : client.addMetalink(AddRequests.metalink(source, folder), false)) {
        shown.added(id);
      }
    } catch (ClientException | IllegalArgumentException ex) {
      problems.accept("Cannot add the Metalink " + source.name(), message(ex));
    }
  }

  @Override
  public void pause(List<Long> ids) {
    each(ids, "pause", client::pause);
  }

  @Override
  public void resume(List<Long> ids) {
    each(ids, "resume", client::resume);
  }

  /** Out of the queue with its partial file; a completed download is left as it is. */
  @Override
  public void cancel(List<Long> ids) {
    each(ids, "cancel", id -> {
      Optional<DownloadView> d = client.download(id);
      if (d.isPresent() && d.get().state() != DownloadState.COMPLETED) {
        client.remove(id, true);
      }
    });
  }

  @Override
  public void remove(List<Long> ids, boolean deleteFiles) {
    each(ids, "remove", id -> client.remove(id, deleteFiles));
  }

  @Override
  public void changeLink(long id, String url) {
    each(List.of(id), "give a new link to", i -> {
      URI uri;
      try {
        uri = URI.create(url.strip());
      } catch (IllegalArgumentException e) {
        throw new ClientException(ClientException.Reason.INVALID, "Not a URL: " + url.strip(), e);
      }
      client.changeUrl(i, uri);
      Optional<DownloadView> d = client.download(i);
      if (d.isPresent() && (d.get().state() == DownloadState.PAUSED || d.get().state() == DownloadState.FAILED)) {
        client.resume(i);
      }
    });
  }

  @Override
  public void speedLimit(long bytesPerSecond) {
    GuiSettings s = settings.withSpeedLimit(bytesPerSecond);
    settings = s;
    io.execute(() -> apply(s, "Cannot change the speed limit"));
  }

  @Override
  public void saveSettings(GuiSettings s) {
    settings = s;
    io.execute(() -> apply(s, "Cannot save the settings"));
  }

  /** io thread: the app's own settings to the store, the queue-wide ones to the engine (live, and kept by it). */
  private void apply(GuiSettings s, String problem) {
    try {
      store.save(s);
      GlobalOptions now = client.globalOptions();
      client.changeGlobalOptions(new GlobalOptions(s.speedLimit(), s.maxActive(),
          RunWindow.parseList(s.automation().runWindows()), SpeedSchedule.parse(s.automation().speedSchedule()),
          now.outageRetry()));
    } catch (Exception e) {
      problems.accept(problem, message(e));
    }
  }

  /**
   * Stops hearing events, ends the io thread (an action already queued still runs; no interrupt,
   * which could land inside an in-process engine's file I/O and close a channel), then closes the
   * client: the app's own engine records its progress and stops (blocking, up to ~30 s), a daemon runs on.
   */
  @Override
  public void close() {
    following.close();
    io.shutdown();
    try {
      io.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    client.close();
  }

  /** io thread: the running downloads, or every SWEEP_EVERY ticks the whole queue. */
  private void tick() {
    try {
      if (ticks++ % SWEEP_EVERY == 0) {
        shown.sweep();
      } else {
        shown.running();
      }
      unreachable = false;
    } catch (ClientException e) {
      if (e.reason() == ClientException.Reason.UNREACHABLE && !unreachable) {
        unreachable = true;
        problems.accept("Lost the braid daemon", message(e));
      }
      // otherwise a busy or briefly locked store: the next tick tries again
    } catch (RuntimeException e) {
      // a failed read must not end the periodic task: the next tick tries again
    }
  }

  /** Acts on each download, then shows it as it stands (or not at all once gone). */
  private void each(List<Long> ids, String verb, Action action) {
    List<Long> copy = List.copyOf(ids);
    io.execute(() -> {
      for (long id : copy) {
        try {
          action.run(id);
          shown.refresh(id);
        } catch (ClientException e) {
          if (e.reason() == ClientException.Reason.NOT_FOUND) {
            // gone meanwhile (another window, the CLI): what the person asked for is done
            shown.forget(id);
          } else {
            problems.accept("Cannot " + verb + " #" + id, message(e));
          }
        }
      }
    });
  }

  /** From the client's event thread: the download is read again on the io thread (not once closed). */
  private void refreshLater(long id) {
    try {
      io.execute(() -> {
        try {
          shown.refresh(id);
        } catch (ClientException e) {
          // the next tick reads it again
        }
      });
    } catch (RejectedExecutionException closed) {
      // the window is closing: nothing more to show
    }
  }

  private static String message(Throwable e) {
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }

  /** One call for one download. */
  @FunctionalInterface
  private interface Action {
    void run(long id) throws ClientException;
  }
}
