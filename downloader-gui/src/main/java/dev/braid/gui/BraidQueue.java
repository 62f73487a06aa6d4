package dev.braid.gui;

import dev.braid.core.Braid;
import dev.braid.core.BraidBuilder;
import dev.braid.core.Checksum;
import dev.braid.core.Download;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadRequestBuilder;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.LocalFileException;
import dev.braid.core.Metalink;
import dev.braid.core.OutageRetry;
import dev.braid.core.Registration;
import dev.braid.core.RunWindow;
import dev.braid.core.SpeedSchedule;
import dev.braid.core.rules.Rules;
import dev.braid.store.DownloadState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The window's engine: a {@link Braid} that runs the queue, seen through the public API only.
 * Actions run on one background thread ("braid-gui-io") so the FX thread never touches the store
 * or the network; what changes comes back as snapshots through the {@link SnapshotPublisher},
 * from Braid's listener (running downloads, a few times a second) and from a poll of the store
 * every second (downloads another process drives, and removals).
 */
final class BraidQueue implements AppQueue {
  private static final Duration PROGRESS_EVERY = Duration.ofMillis(250);
  private static final long POLL_MILLIS = 1000;

  private final Braid braid;
  private final SnapshotPublisher shown;
  private final ScheduledExecutorService io;
  private final Registration registration;
  private volatile Supplier<Rules> rules = () -> Rules.NONE;
  private volatile GuiSettings settings;
  private volatile BiConsumer<String, String> problems = (title, text) -> {};

  private BraidQueue(Braid braid, GuiSettings settings, SnapshotCoalescer out) {
    this.braid = braid;
    this.settings = settings;
    this.shown = new SnapshotPublisher(out);
    this.io = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "braid-gui-io");
      t.setDaemon(true);
      return t;
    });
    this.registration = braid.listen(shown.listener(), PROGRESS_EVERY);
    io.scheduleWithFixedDelay(() -> shown.poll(braid), 0, POLL_MILLIS, TimeUnit.MILLISECONDS);
  }

  /**
   * Opens the store at {@code stateDatabase}, reads the window's settings from it, and starts a
   * Braid that runs the queue with them. Blocking: call it off the FX thread.
   *
   * @param tune adjusts the builder after the settings are applied (tests shorten timeouts)
   */
  static BraidQueue open(String stateDatabase, SnapshotCoalescer out, UnaryOperator<BraidBuilder> tune) throws LocalFileException {
    // the settings live in the store, yet some of them (active downloads, connection budget) are
    // fixed when a Braid is built: read them with a Braid that runs nothing, then build the real one
    GuiSettings settings = readSettings(stateDatabase);
    // the hooks report to the window once it exists; a failure before that (none can come sooner
    // than a download's end) would go nowhere
    java.util.concurrent.atomic.AtomicReference<BraidQueue> window = new java.util.concurrent.atomic.AtomicReference<>();
    BraidBuilder builder = Braid.builder();
    settings.automation().hooksOn(builder, f -> {
      BraidQueue q = window.get();
      if (q != null) {
        q.problems.accept("A hook did not succeed", f.toString());
      }
    });
    Braid braid = tune.apply(builder
        .stateLocation(stateDatabase)
        .downloadDirectory(settings.folder())
        .maxActiveDownloads(settings.maxActive())
        .maxConnectionsTotal(settings.connectionsTotal())
        .rateLimit(settings.speedLimit())
        .storedSchedule(true)
        .outageRetry(OutageRetry.DEFAULT)
        .runQueue(true)).build();
    BraidQueue q = new BraidQueue(braid, settings, out);
    window.set(q);
    return q;
  }

  /** The window's settings stored in {@code stateDatabase}, read by a Braid that runs nothing. */
  static GuiSettings readSettings(String stateDatabase) throws LocalFileException {
    try (Braid reader = Braid.builder().stateLocation(stateDatabase).runQueue(false).build()) {
      return GuiSettings.from(reader.settings());
    }
  }

  /** The engine, for the RPC server the app serves over it. */
  Braid braid() {
    return braid;
  }

  /** Where each added download's host rules come from (read at every add: a saved file applies at once). */
  void rules(Supplier<Rules> source) {
    this.rules = source;
  }

  @Override
  public void onProblem(BiConsumer<String, String> sink) {
    this.problems = sink;
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
      try {
        // the person chose this folder: make it rather than fail every download for its absence
        Files.createDirectories(request.folder());
      } catch (IOException e) {
        problems.accept("Cannot use the folder " + request.folder(), message(e));
        return;
      }
      if (request.metalink() != null) {
        addMetalink(request.metalink(), request.folder());
      }
      // each URL's problem is its own; the valid ones are added together, in one store transaction
      List<DownloadRequest> valid = new ArrayList<>();
      for (AddRequest.Entry e : request.entries()) {
        try {
          valid.add(requestFor(e, request.folder()));
        } catch (Exception ex) {
          problems.accept("Cannot add " + e.url(), message(ex));
        }
      }
      submitAll(valid);
    });
  }

  private DownloadRequest requestFor(AddRequest.Entry e, Path folder) throws InvalidRequestException {
    DownloadRequestBuilder b = DownloadRequest.builder(e.url())
        .maxConnections(Math.min(DownloadRequest.MAX_CONNECTIONS, settings.connectionsPerDownload()));
    // the host's rules beat the window's defaults
    rules.get().forUrl(e.url()).applyTo(b);
    if (e.fileName() != null && !e.fileName().isBlank()) {
      // a list can come from anywhere (a dropped file): its out= names a file, never a path out of the folder
      b.file(folder.resolve(safeName(e.fileName())));
    } else {
      b.directory(folder);
    }
    if (!e.mirrors().isEmpty()) {
      b.mirrors(e.mirrors());
    }
    if (e.checksum() != null) {
      b.checksum(Checksum.parse(e.checksum()));
    }
    return b.build();
  }

  /** io thread: one problem for the lot when the store cannot record them (those recorded before it stay). */
  private void submitAll(List<DownloadRequest> requests) {
    if (requests.isEmpty()) {
      return;
    }
    try {
      braid.submitAll(requests, false).forEach(shown::added);
    } catch (Exception ex) {
      problems.accept(requests.size() == 1 ? "Cannot add " + requests.get(0).uri() : "Cannot add " + requests.size() + " downloads",
          message(ex));
    }
  }

  /**
   * io thread: one download per file of the Metalink (a URL's fetched first), each with its
   * mirrors, size, checksum and piece hashes; every file is checked before the first is added.
   */
  private void addMetalink(MetalinkSource source, Path folder) {
    List<DownloadRequest> requests = new ArrayList<>();
    try {
      Metalink m = source.parsed() != null ? source.parsed() : braid.fetchMetalink(DownloadRequest.builder(source.url()).build());
      for (Metalink.File f : m.files()) {
        DownloadRequestBuilder b = f.request(folder, Metalink.Order.DOCUMENT)
            .maxConnections(Math.min(DownloadRequest.MAX_CONNECTIONS, settings.connectionsPerDownload()));
        // the main URL's host rules, as for a URL added by hand
        rules.get().forUrl(b.build().uri().toString()).applyTo(b);
        requests.add(b.build());
      }
      for (DownloadRequest r : requests) {
        Files.createDirectories(r.file().orElseThrow().getParent());
      }
    } catch (Exception ex) {
      problems.accept("Cannot add the Metalink " + source.name(), message(ex));
      return;
    }
    submitAll(requests);
  }

  @Override
  public void pause(List<Long> ids) {
    each(ids, "pause", true, d -> {
      if (!d.state().settled()) {
        d.pause();
      }
    });
  }

  @Override
  public void resume(List<Long> ids) {
    each(ids, "resume", true, d -> {
      if (d.state() == DownloadState.PAUSED || d.state() == DownloadState.FAILED) {
        d.resume();
      }
    });
  }

  @Override
  public void cancel(List<Long> ids) {
    each(ids, "cancel", false, d -> {
      if (d.state() != DownloadState.COMPLETED) {
        d.cancel();
        shown.forget(d.id());
      }
    });
  }

  @Override
  public void changeLink(long id, String url) {
    each(List.of(id), "give a new link to", true, d -> {
      try {
        d.changeUrl(java.net.URI.create(url.strip()));
      } catch (dev.braid.core.InvalidRequestException e) {
        throw new IllegalArgumentException(e.getMessage(), e);
      }
      if (d.state() == DownloadState.PAUSED || d.state() == DownloadState.FAILED) {
        d.resume();
      }
    });
  }

  @Override
  public void remove(List<Long> ids, boolean deleteFiles) {
    each(ids, "remove", false, d -> {
      d.remove(deleteFiles);
      shown.forget(d.id());
    });
  }

  @Override
  public void speedLimit(long bytesPerSecond) {
    settings = settings.withSpeedLimit(bytesPerSecond);
    io.execute(() -> {
      braid.rateLimit(bytesPerSecond);
      braid.saveSetting(GuiSettings.SPEED_LIMIT, Long.toString(bytesPerSecond));
    });
  }

  @Override
  public void saveSettings(GuiSettings s) {
    settings = s;
    io.execute(() -> {
      try {
        s.toMap().forEach(braid::saveSetting);
        braid.rateLimit(s.speedLimit());
        // the schedule applies at once; the hooks from the next start
        braid.runWindows(RunWindow.parseList(s.automation().runWindows()));
        braid.speedSchedule(SpeedSchedule.parse(s.automation().speedSchedule()));
      } catch (RuntimeException e) {
        problems.accept("Cannot save the settings", message(e));
      }
    });
  }

  /** Stops listening and closes Braid, which records the progress of what runs (blocking, up to ~30 s). */
  @Override
  public void close() {
    registration.close();
    // no interrupt: it could land inside the engine's file I/O on this thread and close a channel;
    // the periodic poll ends with the shutdown, an action already queued still runs
    io.shutdown();
    try {
      io.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    braid.close();
  }

  /** Acts on each download still in the store; {@code show} publishes its new state (not after a removal). */
  private void each(List<Long> ids, String verb, boolean show, Consumer<Download> action) {
    List<Long> copy = List.copyOf(ids);
    io.execute(() -> {
      for (long id : copy) {
        try {
          braid.download(id).ifPresent(d -> {
            action.accept(d);
            if (show) {
              shown.publish(d);
            }
          });
        } catch (RuntimeException e) {
          problems.accept("Cannot " + verb + " #" + id, message(e));
        }
      }
    });
  }

  static String safeName(String name) {
    String last = name.replace('\\', '/');
    last = last.substring(last.lastIndexOf('/') + 1).strip();
    if (last.isEmpty() || last.equals(".") || last.equals("..")) {
      throw new IllegalArgumentException("out=" + name + " is not a file name");
    }
    return last;
  }

  private static String message(Throwable e) {
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }
}
