package dev.braid.gui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.braid.core.Braid;
import dev.braid.core.Gid;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * The window as a client of a running {@code braid daemon}: the queue it shows is the daemon's
 * (tellActive, tellWaiting and tellStopped, polled each second in one batch), and add, pause,
 * resume and remove are calls to it. Everything runs on one background thread
 * ("braid-gui-daemon"); {@link #close()} ends it and leaves the daemon running.
 */
final class DaemonQueue implements AppQueue {
  private static final long POLL_MILLIS = 1000;
  private static final int PAGE = 1000;

  private final DaemonClient client;
  private final String stateDatabase;
  private final SnapshotCoalescer out;
  private final ScheduledExecutorService io;
  private final Set<Long> shown = ConcurrentHashMap.newKeySet();
  private final Set<Long> addedHere = ConcurrentHashMap.newKeySet();
  private volatile GuiSettings settings;
  private volatile BiConsumer<String, String> problems = (title, text) -> {};
  /** io thread only: a lost daemon is told once, not every second. */
  private boolean unreachable;

  DaemonQueue(DaemonClient client, String stateDatabase, GuiSettings settings, SnapshotCoalescer out) {
    this.client = client;
    this.stateDatabase = stateDatabase;
    this.settings = settings;
    this.out = out;
    this.io = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "braid-gui-daemon");
      t.setDaemon(true);
      return t;
    });
    io.scheduleWithFixedDelay(this::poll, 0, POLL_MILLIS, TimeUnit.MILLISECONDS);
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
      if (request.metalink() != null) {
        addMetalink(request.metalink(), request.folder());
      }
      for (AddRequest.Entry e : request.entries()) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("dir", request.folder().toString());
        if (e.fileName() != null && !e.fileName().isBlank()) {
          options.put("out", BraidQueue.safeName(e.fileName()));
        }
        if (e.checksum() != null) {
          options.put("checksum", e.checksum());
        }
        options.put("max-connection-per-server", Integer.toString(settings.connectionsPerDownload()));
        List<String> uris = new ArrayList<>();
        uris.add(e.url());
        uris.addAll(e.mirrors());
        try {
          long id = Gid.parse(client.call("aria2.addUri", uris, options).asText());
          addedHere.add(id);
        } catch (IOException | RuntimeException ex) {
          problems.accept("The daemon did not add " + e.url(), message(ex));
        } catch (InterruptedException ex) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      poll();
    });
  }

  /** io thread: a local Metalink goes to the daemon as {@code aria2.addMetalink} (base64), as the CLI sends it. */
  private void addMetalink(MetalinkSource source, Path folder) {
    if (source.base64() == null) {
      problems.accept("The daemon did not add " + source.name(), "A braid daemon runs this queue, and it takes Metalink"
          + " files, not Metalink URLs: save the .meta4 and add the file.");
      return;
    }
    Map<String, String> options = new LinkedHashMap<>();
    options.put("dir", folder.toAbsolutePath().toString());
    options.put("max-connection-per-server", Integer.toString(settings.connectionsPerDownload()));
    try {
      for (JsonNode gid : client.call("aria2.addMetalink", source.base64(), options)) {
        addedHere.add(Gid.parse(gid.asText()));
      }
    } catch (IOException | RuntimeException ex) {
      problems.accept("The daemon did not add " + source.name(), message(ex));
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void pause(List<Long> ids) {
    each(ids, "pause", (id, gid) -> client.call("aria2.pause", gid));
  }

  /** Unpauses paused downloads; the daemon's RPC has no retry of a failed one. */
  @Override
  public void resume(List<Long> ids) {
    each(ids, "resume", (id, gid) -> client.call("aria2.unpause", gid));
  }

  @Override
  public void cancel(List<Long> ids) {
    remove(ids, false);
  }

  /** The daemon's {@code aria2.changeUri} of the first URI (which proves the new link), then unpauses a paused one. */
  @Override
  public void changeLink(long id, String url) {
    each(List.of(id), "give a new link to", (i, gid) -> {
      String old = client.call("aria2.getUris", gid).path(0).path("uri").asText();
      client.call("aria2.changeUri", gid, 1, List.of(old), List.of(url.strip()), 0);
      if (client.call("aria2.tellStatus", gid, List.of("status")).path("status").asText().equals("paused")) {
        client.call("aria2.unpause", gid);
      }
    });
  }

  /** Removes the entries; the daemon's RPC keeps files, so {@code deleteFiles} is told as not done. */
  @Override
  public void remove(List<Long> ids, boolean deleteFiles) {
    each(ids, "remove", (id, gid) -> {
      String status = client.call("aria2.tellStatus", gid, List.of("status")).path("status").asText();
      if (!status.equals("complete") && !status.equals("error") && !status.equals("removed")) {
        client.call("aria2.forceRemove", gid);
      }
      client.call("aria2.removeDownloadResult", gid);
      forget(id);
    });
    if (deleteFiles) {
      io.execute(() -> problems.accept("Files kept", "The daemon removes queue entries only; delete the files yourself."));
    }
  }

  @Override
  public void speedLimit(long bytesPerSecond) {
    settings = settings.withSpeedLimit(bytesPerSecond);
    io.execute(() -> applyLimit(bytesPerSecond));
  }

  /** Stored in the state database as the app's own settings; the speed limit also goes to the daemon at once. */
  @Override
  public void saveSettings(GuiSettings s) {
    settings = s;
    io.execute(() -> {
      try (Braid store = Braid.builder().stateLocation(stateDatabase).runQueue(false).build()) {
        s.toMap().forEach(store::saveSetting);
      } catch (Exception e) {
        problems.accept("Cannot save the settings", message(e));
      }
      applyLimit(s.speedLimit());
      applySchedule(s.automation());
    });
  }

  @Override
  public void close() {
    io.shutdown();
    try {
      io.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void applyLimit(long bytesPerSecond) {
    try {
      client.call("aria2.changeGlobalOption", Map.of("max-overall-download-limit", Long.toString(bytesPerSecond)));
    } catch (IOException e) {
      problems.accept("Cannot set the daemon's speed limit", message(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The daemon runs by the queue's schedule: it changes there at once (the hooks are the daemon's own). */
  private void applySchedule(AutomationSettings a) {
    try {
      client.call("aria2.changeGlobalOption", Map.of("braid-run-window", a.runWindows(), "braid-speed-schedule",
          a.speedSchedule()));
    } catch (IOException e) {
      problems.accept("Cannot set the daemon's schedule", message(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void each(List<Long> ids, String verb, Call call) {
    List<Long> copy = List.copyOf(ids);
    io.execute(() -> {
      for (long id : copy) {
        try {
          call.run(id, Gid.of(id));
        } catch (IOException e) {
          problems.accept("Cannot " + verb + " #" + id, message(e));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      poll();
    });
  }

  /** io thread: the daemon's whole queue; entries gone from it leave the table. */
  private void poll() {
    List<ObjectNode> requests = List.of(client.request("aria2.tellActive", DaemonSnapshots.KEYS),
        client.request("aria2.tellWaiting", 0, PAGE, DaemonSnapshots.KEYS),
        client.request("aria2.tellStopped", 0, PAGE, DaemonSnapshots.KEYS));
    List<JsonNode> answers;
    try {
      answers = client.batch(requests);
    } catch (IOException e) {
      if (!unreachable) {
        unreachable = true;
        problems.accept("Lost the braid daemon", "No answer from " + client.uri() + ": " + message(e));
      }
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    unreachable = false;
    Set<Long> now = new HashSet<>();
    for (JsonNode list : answers) {
      for (JsonNode status : list) {
        DaemonSnapshots.of(status, addedHere.contains(Gid.parse(status.path("gid").asText()))).ifPresent(s -> {
          now.add(s.id());
          shown.add(s.id());
          out.offer(s);
        });
      }
    }
    for (long id : List.copyOf(shown)) {
      if (!now.contains(id)) {
        forget(id);
      }
    }
  }

  private void forget(long id) {
    shown.remove(id);
    addedHere.remove(id);
    out.remove(id);
  }

  private static String message(Throwable e) {
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }

  /** One call for one download. */
  @FunctionalInterface
  private interface Call {
    void run(long id, String gid) throws IOException, InterruptedException;
  }
}
