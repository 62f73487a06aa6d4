package dev.braid.core;

import dev.braid.core.schedule.DownloadJob;
import dev.braid.store.ChangeMark;
import dev.braid.store.DownloadRecord;
import dev.braid.store.EntryProgress;
import dev.braid.store.EntryState;
import dev.braid.store.ProcessOwner;
import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;
import dev.braid.store.StateStore;
import dev.braid.store.StoreException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The queue of one {@code Braid}: starts stored entries as slots free up (priority, then
 * submission order), keeps the store told of their progress, hears pauses and removals that
 * other processes record, and calls listeners.
 *
 * <p>Threads: one loop thread ({@code braid-queue}), owned here, does the starting, the
 * heartbeats and every listener call; it stops in {@link #close()}. A download's end is seen on
 * its driver thread, which records it and hands the events to the loop.
 */
final class DownloadQueue implements AutoCloseable {
  private static final long TICK_MILLIS = 100;
  /** Queue entries read at a time when looking for work (a few times the usual number of slots). */
  private static final int RUNNABLE_PAGE = 64;
  private static final long HEARTBEAT_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
  private static final long REFRESH_NANOS = TimeUnit.SECONDS.toNanos(1);
  /** The error kind of a pause another process asks for because it removes the entry. */
  private static final String REMOVING = "removing";

  private final StateStore store;
  private final QueueStore table;
  private final String owner = ProcessOwner.self();
  private final Function<DownloadRequest, DownloadJob> jobs;
  private final Executor drivers;
  /** Changed live by {@link #maxActive(int)}; read by the loop each time it looks for work. */
  private volatile int maxActive;
  private final boolean runAll;
  /**
   * The handle of each id while anyone holds it, so that callers see one object per download.
   * Weak (see {@link WeakHandles}); the queue holds strongly only what it must finish:
   * {@link #running} and {@link #wanted}.
   */
  private final WeakHandles handles = new WeakHandles();
  private final Map<Long, Download> running = new ConcurrentHashMap<>();
  /**
   * Entries this instance drives even when it does not run the whole queue: submitted or resumed
   * here, with their handles, whose results callers may be waiting on without holding the handle.
   */
  private final Map<Long, Download> wanted = new ConcurrentHashMap<>();
  /** The highest id the refresh has seen: a higher one is an entry another process added. */
  private long newestSeen;
  /** The queue's latest change number the refresh has read up to (see QueueStore.mark). */
  private long changesSeen;
  /** Ids this instance added that the refresh has not read yet: not news to announce. */
  private final Set<Long> addedHere = ConcurrentHashMap.newKeySet();
  private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
  private final ConcurrentLinkedQueue<Runnable> events = new ConcurrentLinkedQueue<>();
  private final Object signal = new Object();
  private final Thread loop;

  private volatile boolean dirty = true;
  private volatile boolean closing;
  /**
   * Headers and credentials of the requests submitted here, by entry id. Only in memory: the
   * store must never hold a secret, so an entry run by another process (or after a restart) goes
   * without them.
   */
  private final Map<Long, Map<String, String>> headers = new java.util.concurrent.ConcurrentHashMap<>();
  /** The URL refreshers of the requests submitted here, by entry id: callbacks, so in memory only, as the headers. */
  private final Map<Long, DownloadRequest> refreshers = new ConcurrentHashMap<>();
  private volatile boolean stopped;

  DownloadQueue(StateStore store, Function<DownloadRequest, DownloadJob> jobs, Executor drivers, int maxActive, boolean runAll) {
    this.store = store;
    this.table = store.queue();
    this.jobs = jobs;
    this.drivers = drivers;
    this.maxActive = maxActive;
    this.runAll = runAll;
    // what is there now is history, read by whoever asks and not announced; what changes from
    // here on is news, also before the loop's first look (whose start a busy machine delays)
    ChangeMark now = table.mark();
    this.newestSeen = now.newestId();
    this.changesSeen = now.latestChange();
    this.loop = new Thread(this::loop, "braid-queue");
    loop.setDaemon(true);
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
        Download h = handle(newest.get());
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
      addedHere.add(e.id());
      keepHeaders(e.id(), request);
      Download h = handle(e);
      h.submitted();
      h.queued();
      transition(h, DownloadState.PAUSED);
      h.result().completeExceptionally(new DownloadPausedException("added paused"));
      return h;
    }
    // claimed at once: a process running the whole queue (the desktop app) must not take it first
    QueueEntry e = table.add(urls, file, request.directory(), options, request.priority(), owner, EntryState.QUEUED);
    addedHere.add(e.id());
    keepHeaders(e.id(), request);
    return queueHere(handle(e));
  }

  /**
   * Adds a download queued and claimed by nobody, for whichever process runs the queue (a daemon,
   * any worker of a fleet); this one never starts it. An unfinished entry for the same URL and
   * target is queued again if it was paused or failed, and returned instead.
   */
  Download enqueue(DownloadRequest request) {
    Path file = request.file().orElse(null);
    Optional<QueueEntry> unfinished = table.matching(request.uri().toString(), file, request.directory()).stream()
        .filter(e -> e.state() != EntryState.COMPLETED).findFirst();
    if (unfinished.isEmpty()) {
      return handle(table.add(RequestCodec.urls(request), file, request.directory(), RequestCodec.options(request),
          request.priority(), null, EntryState.QUEUED));
    }
    QueueEntry e = unfinished.get();
    if (e.state() == EntryState.PAUSED || e.state() == EntryState.FAILED) {
      table.setState(e.id(), EntryState.QUEUED, null, null);
      e = table.get(e.id()).orElse(e);
    }
    return handle(e);
  }

  private void keepHeaders(long id, DownloadRequest request) {
    if (request.urlRefresher().isPresent()) {
      refreshers.put(id, request);
    } else {
      refreshers.remove(id);
    }
    if (request.headers().isEmpty()) {
      headers.remove(id);
    } else {
      headers.put(id, request.headers());
    }
  }

  /** The decoded request with the headers given to this process, if any. */
  private DownloadRequest withHeaders(long id, DownloadRequest decoded) {
    Map<String, String> h = headers.get(id);
    DownloadRequest refreshing = refreshers.get(id);
    if (h == null && refreshing == null) {
      return decoded;
    }
    DownloadRequest.Builder b = decoded.toBuilder();
    if (h != null) {
      h.forEach(b::header);
    }
    if (refreshing != null) {
      b.urlRefresher(refreshing.urlRefresher().get()).maxUrlRefreshes(refreshing.maxUrlRefreshes())
          .urlRefreshTimeout(refreshing.urlRefreshTimeout());
    }
    return b.buildUnchecked();
  }

  private Download continueEntry(QueueEntry e, DownloadRequest request, List<String> urls, Map<String, String> options) {
    Download h = handle(e);
    if (running.containsKey(e.id())) {
      return h;
    }
    if (table.held(e) && !e.owner().equals(owner)) {
      // another process drives it: this one must not, and says so at once
      Download refused = new Download(this, e, DownloadState.ACTIVE);
      refused.submitted();
      refused.result().completeExceptionally(new LocalFileException(describe(e)
          + " is being downloaded by another braid process (pid " + ProcessOwner.pidOf(e.owner()) + ")"));
      return refused;
    }
    table.requeue(e.id(), urls, options, request.priority(), owner);
    keepHeaders(e.id(), request);
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

  private static String describe(QueueEntry e) {
    Path f = e.target() != null ? e.target() : e.file();
    return f != null ? f + ".part" : "download #" + e.id() + " (" + e.url() + ")";
  }

  /** Waits here for a slot; the handle holds the entry as it now stands in the store. */
  private Download queueHere(Download h) {
    h.submitted();
    h.queued();
    wanted.put(h.id(), h);
    transition(h, DownloadState.QUEUED);
    dirty = true;
    wake();
    return h;
  }

  void pause(Download h) {
    // under the download's lifecycle lock, as launch: a pause either finds the download running
    // or records PAUSED before launch reads the entry, never in between (one then was lost)
    synchronized (h.lifecycle) {
      wanted.remove(h.id());
      Download local = running.get(h.id());
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
    if (running.containsKey(h.id()) || h.state() == DownloadState.COMPLETED) {
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
    wanted.remove(h.id());
    Download local = running.get(h.id());
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
      deleteFiles(target.get(), deleteFile);
    }
    h.result().completeExceptionally(new DownloadRemovedException("removed from the queue"));
    post(() -> subscribers.forEach(s -> s.removed(h)));
  }

  private void deleteFiles(Path target, boolean alsoComplete) {
    try {
      store.records().findByTarget(target).ifPresent(r -> store.records().delete(r.id()));
      Files.deleteIfExists(target.resolveSibling(target.getFileName() + ".part"));
      if (alsoComplete) {
        Files.deleteIfExists(target);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot delete " + target + ": " + e.getMessage(), e);
    }
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
    table.setState(h.id(), EntryState.PAUSED, "removed from the queue by another process", REMOVING);
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
    if (j != null && running.containsKey(h.id())) {
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
      Download local = running.get(h.id());
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
      if (running.containsKey(h.id())) {
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
    dirty = true;
    wake();
  }

  Optional<RemoteFile> storedRemote(Download h) {
    return h.file().flatMap(store.records()::findByTarget).map(DownloadRecord::remote)
        .map(r -> new RemoteFile(r.finalUrl(), r.length(), r.etag(), r.lastModified(), r.ranges()));
  }

  Registration listen(Download only, DownloadListener l, Duration every) {
    Subscriber s = new Subscriber(only, l, Math.max(TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS), every.toNanos()));
    subscribers.add(s);
    return () -> subscribers.remove(s);
  }

  /** Every download in the store, oldest first, as handles (the same object for the same id while anyone holds it). */
  List<Download> all() {
    List<Download> out = new ArrayList<>();
    for (QueueEntry e : table.all()) {
      out.add(handle(e));
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
      counts.merge(shown(e), 1L, Long::sum);
    }
    return counts;
  }

  Optional<Download> find(long id) {
    Download h = handles.get(id);
    return h != null ? Optional.of(h) : table.get(id).map(this::handle);
  }

  private Download handle(QueueEntry e) {
    return handles.computeIfAbsent(e.id(), id -> new Download(this, e, shown(e)));
  }

  /** The state users see: an active entry whose process is gone waits to be resumed. */
  private DownloadState shown(QueueEntry e) {
    if (e.state() == EntryState.ACTIVE && !running.containsKey(e.id()) && !table.held(e)) {
      return DownloadState.QUEUED;
    }
    return DownloadState.valueOf(e.state().name());
  }

  // ---- the loop

  private void loop() {
    long nextHeartbeat = 0;
    long nextRefresh = 0;
    while (!stopped) {
      try {
        long now = System.nanoTime();
        if (!closing && (dirty || now >= nextRefresh) && running.size() < maxActive) {
          dirty = false;
          startWhatFits();
        }
        if (now >= nextHeartbeat) {
          heartbeat();
          nextHeartbeat = now + HEARTBEAT_NANOS;
        }
        if (now >= nextRefresh) {
          refresh();
          nextRefresh = now + REFRESH_NANOS;
        }
        drainEvents();
        sendProgress(now);
      } catch (StoreException e) {
        // the store is busy or failing (another process holds it): try again on the next tick
      } catch (RuntimeException e) {
        // a listener failed: it must not stop the queue for everyone else
      }
      synchronized (signal) {
        // new entries with every slot taken are work for later: the end of a download wakes
        // the loop (waiting on dirty alone spun a core through a whole batch)
        boolean canStart = dirty && !closing && running.size() < maxActive;
        if (!stopped && events.isEmpty() && !canStart) {
          try {
            signal.wait(TICK_MILLIS);
          } catch (InterruptedException e) {
            return;
          }
        }
      }
    }
    drainEvents();
  }

  /**
   * Starts runnable entries while slots are free. It runs each time a download ends, so it reads
   * the queue a page at a time: reading all of a 1,000-file batch every time made a batch
   * quadratic (the queue thread was ~20 % of the CPU of `get -i` with 1,000 small files).
   */
  private void startWhatFits() {
    for (int offset = 0; running.size() < maxActive && !closing; offset += RUNNABLE_PAGE) {
      List<Long> page = table.runnable(RUNNABLE_PAGE, offset);
      startWhatFits(page);
      if (page.size() < RUNNABLE_PAGE) {
        return;
      }
    }
  }

  private void startWhatFits(List<Long> page) {
    for (long id : page) {
      if (running.size() >= maxActive || closing) {
        return;
      }
      if (running.containsKey(id) || (!runAll && !wanted.containsKey(id))) {
        continue;
      }
      Download h = wanted.get(id);
      Optional<Download> runnable = h != null ? Optional.of(h) : table.get(id).map(this::handle);
      if (runnable.isPresent() && !launch(runnable.get())) {
        if (h != null) {
          refuseIfHeldElsewhere(h);
        } else if (table.get(id).isEmpty()) {
          // removed between the page's read and now: the handle made from that read must not
          // outlive its entry (find() kept answering with it)
          handles.remove(id);
        }
      }
    }
  }

  /** Asked for here, but another live process took it first: only one may drive it. */
  private void refuseIfHeldElsewhere(Download h) {
    Optional<QueueEntry> e = table.get(h.id());
    boolean held = e.isPresent() && e.get().owner() != null && !e.get().owner().equals(owner)
        && (e.get().state() == EntryState.QUEUED || e.get().state() == EntryState.ACTIVE);
    if (held && wanted.remove(h.id()) != null) {
      h.result().completeExceptionally(new LocalFileException(describe(e.get())
          + " is being downloaded by another braid process (pid " + ProcessOwner.pidOf(e.get().owner()) + ")"));
    }
  }

  /**
   * Claims and starts an entry, unless it was paused or removed since the page was read or a
   * live other process holds it; whether it started (or failed at once).
   */
  private boolean launch(Download h) {
    synchronized (h.lifecycle) {
      Optional<QueueEntry> started = table.start(h.id(), owner);
      if (started.isEmpty()) {
        return false;
      }
      QueueEntry e = started.get();
      h.entry(e);
      h.removing = false;
      DownloadRequest request;
      try {
        request = withHeaders(e.id(), RequestCodec.decode(e));
      } catch (InvalidRequestException ex) {
        table.setState(e.id(), EntryState.FAILED, ex.getMessage(), kind(ex));
        table.release(e.id(), owner);
        wanted.remove(e.id());
        transition(h, DownloadState.FAILED);
        h.result().completeExceptionally(ex);
        return true;
      }
      DownloadJob job = jobs.apply(request);
      h.started(job);
      running.put(e.id(), h);
      transition(h, DownloadState.ACTIVE);
      job.result().whenComplete((r, ex) -> finished(h, job, r, ex));
      drivers.execute(job);
      return true;
    }
  }

  /** On the download's driver thread, after every connection stopped and its progress was recorded. */
  private void finished(Download h, DownloadJob job, DownloadResult r, Throwable failure) {
    Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    // read once: a heartbeat that reads the store after the finish below sees the entry released
    // and marks it removing; the end decided here stands
    boolean removing = h.removing;
    DownloadState end;
    if (removing) {
      end = h.state();
    } else if (r != null) {
      end = DownloadState.COMPLETED;
    } else if (cause instanceof DownloadPausedException) {
      // closing Braid keeps the queue's intent: the entry runs again next time
      end = h.pauseAsked || !closing ? DownloadState.PAUSED : DownloadState.QUEUED;
    } else {
      end = DownloadState.FAILED;
    }
    if (!job.currentUri().toString().equals(h.entry().url()) && job.target().isPresent()) {
      // the refresher moved it: a later run continues from the new URL
      List<String> urls = new ArrayList<>(h.entry().urls());
      urls.set(0, job.currentUri().toString());
      try {
        table.changeUrls(h.id(), urls, job.target().get());
      } catch (RuntimeException e) {
        // as below: the outcome still reaches the caller
      }
    }
    try {
      // one transaction: a batch of small files ends a download every few milliseconds
      table.finish(owner, progressOf(h, job), removing ? null : EntryState.valueOf(end.name()),
          end == DownloadState.FAILED ? cause.getMessage() : null, end == DownloadState.FAILED ? kind(cause) : null)
          .ifPresent(h::entry);
    } catch (RuntimeException e) {
      // the store failed (busy, full disk): the outcome still reaches the caller; the entry
      // stays active under this process, and a run after this process ends resumes it
    }
    // the event goes out before the slot frees, so listeners never see more than the limit
    // active; the result completes after, so whoever waits on it can resume at once
    if (!removing) {
      transition(h, end);
    }
    // out of wanted before out of running: a heartbeat that reads running first never takes a
    // download this process just ended for one waiting here
    if (end != DownloadState.QUEUED) {
      wanted.remove(h.id());
    }
    running.remove(h.id());
    if (r != null) {
      h.result().complete(r);
    } else {
      // the job only saw a pause; its caller must hear that the entry is gone and will not resume
      h.result().completeExceptionally(removing ? new DownloadRemovedException("removed from the queue while it ran") : cause);
    }
    dirty = true;
    wake();
  }

  private static String kind(Throwable t) {
    return t.getClass().getSimpleName();
  }

  private EntryProgress progressOf(Download h, DownloadJob job) {
    Progress p = job.progress();
    return new EntryProgress(h.id(), job.target().orElse(null), p.length(), p.done());
  }

  /** Tells the store how far this process's downloads are, and hears what others asked of them. */
  private void heartbeat() {
    if (running.isEmpty() && wanted.isEmpty()) {
      return;
    }
    List<EntryProgress> progress = new ArrayList<>();
    running.values().forEach(h -> progress.add(progressOf(h, h.job())));
    // only entries submitted before the store is read can be judged by what it says: one
    // submitted meanwhile is claimed by this process but may be missing from the answer
    // and only those not running: running first, so one ending meanwhile is in neither set
    Set<Long> runningNow = Set.copyOf(running.keySet());
    Set<Long> waiting = new HashSet<>(wanted.keySet());
    waiting.removeAll(runningNow);
    Map<Long, EntryState> asked = table.heartbeat(owner, progress);
    for (Download h : running.values()) {
      EntryState s = asked.get(h.id());
      if (s == null) {
        h.removing = true;
        h.job().pause();
      } else if (s == EntryState.PAUSED) {
        if (table.get(h.id()).filter(q -> REMOVING.equals(q.errorKind())).isPresent()) {
          h.removing = true;
        } else {
          h.pauseAsked = true;
        }
        h.job().pause();
      }
    }
    // entries waiting here for a slot that another process paused or removed: their callers hear it now
    for (long id : waiting) {
      Download h = wanted.get(id);
      EntryState s = asked.get(id);
      if (h == null || running.containsKey(id) || (s != null && s != EntryState.PAUSED)) {
        continue;
      }
      Optional<QueueEntry> taken = s == null ? table.get(id) : Optional.empty();
      if (taken.isPresent() && taken.get().owner() == null) {
        // unclaimed, not taken: this process released it (it ended here meanwhile, or a claim
        // was given up); it stays waiting here and the next start claims it again
        continue;
      }
      wanted.remove(id);
      if (s == null) {
        if (taken.isPresent()) {
          h.result().completeExceptionally(new LocalFileException(describe(taken.get())
              + " is being downloaded by another braid process (pid " + ProcessOwner.pidOf(taken.get().owner()) + ")"));
        } else {
          handles.remove(id);
          h.result().completeExceptionally(new DownloadRemovedException("removed from the queue by another process"));
          post(() -> subscribers.forEach(sub -> sub.removed(h)));
        }
      } else {
        table.get(id).ifPresent(h::entry);
        transition(h, DownloadState.PAUSED);
        h.result().completeExceptionally(new DownloadPausedException("paused by another process before it started"));
      }
    }
    // the connection grants of this process's downloads live under the same owner and lease
    store.grants().renew(owner);
  }

  /**
   * Picks up what other processes changed: new entries, the states and progress of entries
   * someone holds a handle of, and removals of those. Reads the queue only when another process
   * wrote to the store, and then only what changed since the last look (change numbers):
   * re-reading every row of a long history each second kept two processes on one store busy
   * (20,000 rows: 5x the CPU of a download).
   */
  private void refresh() {
    ChangeMark mark = table.mark();
    long upTo = mark.latestChange();
    // with no other writer since the last look, every change is this process's own
    if (!mark.othersWrote()) {
      newestSeen = mark.newestId();
      changesSeen = upTo;
      addedHere.removeIf(id -> id <= newestSeen);
      showGoneOwners();
      return;
    }
    long newest = newestSeen;
    for (QueueEntry e : table.changedBetween(changesSeen, upTo)) {
      newestSeen = Math.max(newestSeen, e.id());
      if (running.containsKey(e.id())) {
        continue;
      }
      boolean added = e.id() > newest && !addedHere.contains(e.id()) && !handles.contains(e.id());
      Download h = added ? handle(e) : handles.get(e.id());
      if (h == null) {
        continue;
      }
      h.entry(e);
      DownloadState s = shown(e);
      if (added || s != h.state()) {
        transition(h, s);
      }
    }
    for (long id : table.removedBetween(changesSeen, upTo)) {
      // the heartbeat tells the callers of what this process drives or waits for
      Download h = running.containsKey(id) || wanted.containsKey(id) ? null : handles.remove(id);
      if (h != null) {
        post(() -> subscribers.forEach(sub -> sub.removed(h)));
      }
    }
    changesSeen = upTo;
    addedHere.removeIf(id -> id <= newestSeen);
    showGoneOwners();
  }

  /**
   * An entry whose process ended without a word (killed, crashed) changes no row: it is shown
   * as queued once its owner is gone, judged from the entry as last read.
   */
  private void showGoneOwners() {
    for (Download h : handles.values()) {
      if (h.state() == DownloadState.ACTIVE && !running.containsKey(h.id())) {
        DownloadState s = shown(h.entry());
        if (s != DownloadState.ACTIVE) {
          transition(h, s);
        }
      }
    }
  }

  private void transition(Download h, DownloadState s) {
    h.state(s);
    post(() -> subscribers.forEach(sub -> sub.stateChanged(h, s)));
  }

  private void post(Runnable event) {
    events.add(event);
    wake();
  }

  private void drainEvents() {
    Runnable r;
    while ((r = events.poll()) != null) {
      try {
        r.run();
      } catch (RuntimeException e) {
        // one listener's failure must not keep the others from hearing
      }
    }
  }

  private void sendProgress(long now) {
    for (Subscriber s : subscribers) {
      if (now < s.nextDue) {
        continue;
      }
      s.nextDue = now + s.everyNanos;
      for (Download h : handles.values()) {
        if (h.state() == DownloadState.ACTIVE && (s.only == null || s.only == h)) {
          s.progress(h);
        }
      }
    }
  }

  private void wake() {
    synchronized (signal) {
      signal.notifyAll();
    }
  }

  /** A new limit of downloads at once: more start at once; a lower one lets the running ones finish. */
  void maxActive(int n) {
    maxActive = n;
    dirty = true;
    wake();
  }

  int maxActive() {
    return maxActive;
  }

  /** Active downloads driven by this instance. */
  List<Download> running() {
    return List.copyOf(running.values());
  }

  /**
   * Stops starting downloads and pauses the running ones; their entries stay queued for the next
   * run. The caller waits for the driver threads; {@link #stop()} then ends the loop.
   */
  @Override
  public void close() {
    closing = true;
    running.values().forEach(h -> h.job().pause());
  }

  /** Ends the loop thread after the last events went out. */
  void stop() {
    stopped = true;
    wake();
    try {
      loop.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
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

  /** A listener with its progress rate, and for one download or all. */
  private static final class Subscriber {
    final Download only;
    final DownloadListener listener;
    final long everyNanos;
    long nextDue;

    Subscriber(Download only, DownloadListener listener, long everyNanos) {
      this.only = only;
      this.listener = listener;
      this.everyNanos = everyNanos;
    }

    void stateChanged(Download h, DownloadState s) {
      if (only == null || only == h) {
        listener.stateChanged(h, s);
      }
    }

    void progress(Download h) {
      listener.progress(h, h.progress());
    }

    void removed(Download h) {
      if (only == null || only == h) {
        listener.removed(h);
      }
    }
  }
}
