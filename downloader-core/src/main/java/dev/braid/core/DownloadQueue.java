package dev.braid.core;

import dev.braid.core.queue.ChangeFeed;
import dev.braid.core.queue.EntryFiles;
import dev.braid.core.queue.HandleAccess;
import dev.braid.core.queue.HandleMap;
import dev.braid.core.queue.Heartbeat;
import dev.braid.core.queue.HeldElsewhere;
import dev.braid.core.queue.ListenerBus;
import dev.braid.core.queue.SlotLoop;
import dev.braid.core.schedule.DownloadJob;
import dev.braid.store.DownloadRecord;
import dev.braid.store.EntryProgress;
import dev.braid.store.EntryState;
import dev.braid.store.ProcessOwner;
import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;
import dev.braid.store.StateStore;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The queue of one {@code Braid}: the public API's actions on it (submit, pause, resume, remove,
 * changes), over the parts in {@code dev.braid.core.queue}: the {@link SlotLoop} that starts
 * stored entries as slots free up and delivers events, the {@link Heartbeat} and the
 * {@link ChangeFeed} that keep this process and the store in step, the {@link HandleMap} of
 * handles, and {@link QueueRuns}, which starts and ends the runs.
 *
 * <p>Threads: the loop thread ({@code braid-queue}, owned by the {@link SlotLoop}) does the
 * starting, the heartbeats, the feed and every listener call; it stops in {@link #stop()}. The
 * actions below run on their callers' threads. A download's end is seen on its driver thread,
 * which records it and hands the events to the loop.
 *
 * <p>Locks: the store makes each call atomic; no lock here spans two. A handle's
 * {@code lifecycle} lock is held by a launch, a pause, a URL or mirror change, so that each sees
 * the download either running or not, never starting. The loop's wait has a lock of its own.
 */
final class DownloadQueue implements AutoCloseable {
  private final StateStore store;
  private final QueueStore table;
  private final String owner = ProcessOwner.self();
  private final HandleAccess access = new Access();
  private final HandleMap handles;
  private final RequestSecrets secrets = new RequestSecrets();
  private final SlotLoop loop;
  private final ListenerBus bus;
  private final Heartbeat heartbeat;
  private final ChangeFeed feed;
  private final QueueRuns runs;

  DownloadQueue(StateStore store, Function<DownloadRequest, DownloadJob> jobs, Executor drivers, int maxActive, boolean runAll) {
    this.store = store;
    this.table = store.queue();
    this.handles = new HandleMap((e, shown) -> new Download(this, e, shown), table::held);
    // the loop calls back into the parts below only once started, at the end of this constructor
    this.loop = new SlotLoop(table, maxActive, new SlotLoop.Work() {
      @Override
      public int running() {
        return handles.runningCount();
      }

      @Override
      public void tryStart(long id) {
        runs.tryStart(id);
      }

      @Override
      public void heartbeat() {
        heartbeat.beat();
      }

      @Override
      public void refresh() {
        feed.refresh();
      }

      @Override
      public Collection<Download> handles() {
        return handles.values();
      }
    });
    this.bus = loop.bus();
    this.heartbeat = new Heartbeat(table, owner, handles, access, bus);
    this.feed = new ChangeFeed(table, handles, access, bus);
    this.runs = new QueueRuns(table, owner, jobs, drivers, runAll, handles, access, secrets, loop);
    loop.start();
  }

  // ---- the public API's actions

  Download submit(DownloadRequest request, boolean paused) {
    String url = request.uri().toString();
    Path file = request.file().orElse(null);
    List<String> urls = RequestCodec.urls(request);
    Map<String, String> options = RequestCodec.options(request);
    // the newest entry for the same URL and target is the one a repeated request continues
    Optional<QueueEntry> newest = table.matching(url, file, request.directory()).stream().findFirst();
    if (newest.isEmpty() && file != null) {
      // another URL for a file being downloaded: a refreshed link continues that entry (the pass proves the file the same)
      newest = table.unfinishedWithFile(file);
    }
    if (newest.isPresent() && newest.get().state() != EntryState.COMPLETED) {
      Download h = continueEntry(newest.get(), request, urls, options);
      if (paused) {
        pause(h);
      }
      return h;
    }
    if (newest.isPresent() && !request.overwrite()) {
      Optional<DownloadResult> kept = alreadyComplete(newest.get());
      if (kept.isPresent()) {
        Download h = handles.handle(newest.get());
        h.submitted();
        h.queued();
        h.result().complete(kept.get());
        // said, as any other end is: a listener reporting the downloads asked for (--json) hears of it
        transition(h, DownloadState.COMPLETED);
        return h;
      }
    }
    if (paused) {
      // written paused: no loop, this process's or another's, can start it before a resume
      QueueEntry e = table.add(urls, file, request.directory(), options, request.priority(), owner, EntryState.PAUSED);
      feed.addedHere(e.id());
      secrets.keep(e.id(), request);
      Download h = handles.handle(e);
      h.submitted();
      h.queued();
      transition(h, DownloadState.PAUSED);
      h.result().completeExceptionally(new DownloadPausedException("added paused"));
      return h;
    }
    // claimed at once: a process running the whole queue (the desktop app) must not take it first
    QueueEntry e = table.add(urls, file, request.directory(), options, request.priority(), owner, EntryState.QUEUED);
    feed.addedHere(e.id());
    secrets.keep(e.id(), request);
    return queueHere(handles.handle(e));
  }

  private Download continueEntry(QueueEntry e, DownloadRequest request, List<String> urls, Map<String, String> options) {
    Download h = handles.handle(e);
    if (handles.isRunning(e.id())) {
      return h;
    }
    if (table.held(e) && !e.owner().equals(owner)) {
      // another process drives it: this one must not, and says so at once
      Download refused = new Download(this, e, DownloadState.ACTIVE);
      refused.submitted();
      refused.result().completeExceptionally(HeldElsewhere.of(e));
      return refused;
    }
    table.requeue(e.id(), urls, options, request.priority(), owner);
    secrets.keep(e.id(), request);
    table.get(h.id()).ifPresent(h::entry);
    return queueHere(h);
  }

  /** A completed entry whose file is still there, whole: submitting it again fetches nothing. */
  private static Optional<DownloadResult> alreadyComplete(QueueEntry e) {
    try {
      if (e.target() != null && e.length() >= 0 && Files.size(e.target()) == e.length()) {
        return Optional.of(new DownloadResult(e.target(), e.length(), 0, e.length(), Duration.ZERO, 0));
      }
    } catch (IOException gone) {
      // deleted or unreadable since: download it again
    }
    return Optional.empty();
  }

  /** Waits here for a slot; the handle holds the entry as it now stands in the store. */
  private Download queueHere(Download h) {
    h.submitted();
    h.queued();
    handles.want(h);
    transition(h, DownloadState.QUEUED);
    loop.changed();
    return h;
  }

  void pause(Download h) {
    // under the download's lifecycle lock, as launch: a pause either finds the download running
    // or records PAUSED before launch reads the entry, never in between (one then was lost)
    synchronized (h.lifecycle) {
      handles.unwant(h.id());
      Download local = handles.running(h.id());
      if (local != null) {
        local.pauseAsked = true;
        local.job().pause();
        return;
      }
      if (!h.state().settled()) {
        // queued here, or driven by another process, which sees this at its next heartbeat
        table.setState(h.id(), EntryState.PAUSED, null, null);
        table.get(h.id()).ifPresent(h::entry);
        transition(h, DownloadState.PAUSED);
        h.result().completeExceptionally(new DownloadPausedException("paused before it started"));
      }
    }
  }

  void resume(Download h) {
    if (handles.isRunning(h.id()) || h.state() == DownloadState.COMPLETED) {
      return;
    }
    // claimed before it is queued, so that only this process picks it up (unless it dies)
    if (!table.claim(h.id(), owner)) {
      return;
    }
    table.setState(h.id(), EntryState.QUEUED, null, null);
    table.get(h.id()).ifPresent(h::entry);
    queueHere(h);
  }

  void remove(Download h, boolean deleteFile, boolean deletePart) {
    h.removing = true;
    handles.unwant(h.id());
    Download local = handles.running(h.id());
    if (local != null) {
      local.job().pause();
      awaitQuietly(local);
    } else {
      awaitRelease(h);
    }
    QueueEntry e = table.get(h.id()).orElse(h.entry());
    Optional<Path> target = Optional.ofNullable(e.target() != null ? e.target() : e.file()).or(h::file);
    table.remove(h.id());
    handles.remove(h.id());
    if (target.isPresent() && (deleteFile || deletePart)) {
      EntryFiles.delete(store.records(), target.get(), deleteFile);
    }
    h.result().completeExceptionally(new DownloadRemovedException("removed from the queue"));
    bus.removed(h);
  }

  /** Another process drives it: ask it to stop and wait (bounded) for it to let go. */
  private void awaitRelease(Download h) {
    Optional<QueueEntry> e = table.get(h.id());
    if (e.isEmpty() || !table.held(e.get()) || e.get().owner().equals(owner)) {
      return;
    }
    boolean driving = e.get().state() == EntryState.ACTIVE;
    // a pause its owner can tell from one asked for: it stops as for a pause, then tells its
    // caller the entry is gone instead of "run again to resume"
    table.setState(h.id(), EntryState.PAUSED, "removed from the queue by another process", Heartbeat.REMOVING);
    if (!driving) {
      // queued there, not started: its owner hears of the removal at its next heartbeat
      return;
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (System.nanoTime() < deadline) {
      Optional<QueueEntry> now = table.get(h.id());
      if (now.isEmpty() || now.get().owner() == null || !table.held(now.get())) {
        return;
      }
      sleep(100);
    }
  }

  void rateLimit(Download h, long bytesPerSecond) {
    QueueEntry e = table.get(h.id()).orElse(h.entry());
    Map<String, String> options = new LinkedHashMap<>(e.options());
    options.put("rate_limit", Long.toString(bytesPerSecond));
    table.updateOptions(h.id(), options);
    DownloadJob j = h.job();
    if (j != null && handles.isRunning(h.id())) {
      j.rateLimit(bytesPerSecond);
    }
  }

  /** The URL {@code h} continues from; a running download moves to it at once, another when it next runs. */
  void changeUrl(Download h, URI uri) throws InvalidRequestException {
    DownloadRequest checked = DownloadRequest.builder(uri.toString()).build();
    synchronized (h.lifecycle) {
      QueueEntry e = table.get(h.id()).orElse(h.entry());
      List<String> urls = new ArrayList<>(e.urls());
      urls.set(0, checked.uri().toString());
      Download local = handles.running(h.id());
      Path file = local != null && local.job().target().isPresent() ? local.job().target().get()
          : e.target() != null ? e.target() : e.file();
      if (file == null) {
        throw new InvalidRequestException("#" + h.id() + " has no file yet to continue; submit the new URL instead");
      }
      if (local != null) {
        local.job().changeUrl(checked.uri());
      }
      table.changeUrls(h.id(), urls, file);
      table.get(h.id()).ifPresent(h::entry);
    }
  }

  void mirrors(Download h, List<String> mirrors) throws InvalidRequestException {
    synchronized (h.lifecycle) {
      if (handles.isRunning(h.id())) {
        throw new IllegalStateException("the mirrors of a running download cannot change: pause it first");
      }
      QueueEntry e = table.get(h.id()).orElse(h.entry());
      DownloadRequest checked = DownloadRequest.builder(e.url()).mirrors(mirrors).build();
      table.updateUrls(h.id(), RequestCodec.urls(checked));
      table.get(h.id()).ifPresent(h::entry);
    }
  }

  void priority(Download h, int priority) {
    table.updatePriority(h.id(), priority);
    table.get(h.id()).ifPresent(h::entry);
    loop.changed();
  }

  Optional<RemoteFile> storedRemote(Download h) {
    return h.file().flatMap(store.records()::findByTarget).map(DownloadRecord::remote)
        .map(r -> new RemoteFile(r.finalUrl(), r.length(), r.etag(), r.lastModified(), r.ranges()));
  }

  Registration listen(Download only, DownloadListener l, Duration every) {
    return bus.listen(only, l, every);
  }

  /** Every download in the store, oldest first, as handles (the same object for the same id while anyone holds it). */
  List<Download> all() {
    List<Download> out = new ArrayList<>();
    for (QueueEntry e : table.all()) {
      out.add(handles.handle(e));
    }
    return out;
  }

  /**
   * How many downloads are in each state as users see them, without a handle per entry: a
   * metrics scrape of a store with a long history made one for every row.
   */
  Map<DownloadState, Long> countByState() {
    Map<DownloadState, Long> counts = new EnumMap<>(DownloadState.class);
    table.countByState().forEach((s, n) -> {
      if (s != EntryState.ACTIVE) {
        counts.merge(DownloadState.valueOf(s.name()), n, Long::sum);
      }
    });
    // an active entry whose process is gone shows as queued: only these few are read whole
    for (QueueEntry e : table.inState(EntryState.ACTIVE)) {
      counts.merge(handles.shown(e), 1L, Long::sum);
    }
    return counts;
  }

  Optional<Download> find(long id) {
    Download h = handles.get(id);
    return h != null ? Optional.of(h) : table.get(id).map(handles::handle);
  }

  private void transition(Download h, DownloadState s) {
    h.state(s);
    bus.stateChanged(h, s);
  }

  /** A new limit of downloads at once: more start at once; a lower one lets the running ones finish. */
  void maxActive(int n) {
    loop.maxActive(n);
  }

  int maxActive() {
    return loop.maxActive();
  }

  /** Active downloads driven by this instance. */
  List<Download> running() {
    return List.copyOf(handles.runningNow());
  }

  /**
   * Stops starting downloads and pauses the running ones; their entries stay queued for the next
   * run. The caller waits for the driver threads; {@link #stop()} then ends the loop.
   */
  @Override
  public void close() {
    loop.close();
    handles.runningNow().forEach(h -> h.job().pause());
  }

  /** Ends the loop thread after the last events went out. */
  void stop() {
    loop.stop();
  }

  private static void awaitQuietly(Download h) {
    try {
      h.result().handle((r, e) -> null).get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The handle's package-private side, for the parts in {@code dev.braid.core.queue}. */
  private final class Access implements HandleAccess {
    @Override
    public QueueEntry entry(Download h) {
      return h.entry();
    }

    @Override
    public void entry(Download h, QueueEntry e) {
      h.entry(e);
    }

    @Override
    public void stopRun(Download h, boolean removing) {
      if (removing) {
        h.removing = true;
      } else {
        h.pauseAsked = true;
      }
      h.job().pause();
    }

    @Override
    public EntryProgress progress(Download h) {
      return QueueRuns.progressOf(h, h.job());
    }

    @Override
    public void transition(Download h, DownloadState s) {
      DownloadQueue.this.transition(h, s);
    }
  }
}
