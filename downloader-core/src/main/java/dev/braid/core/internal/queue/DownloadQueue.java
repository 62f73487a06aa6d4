package dev.braid.core.internal.queue;

import dev.braid.core.Download;
import dev.braid.core.DownloadHook;
import dev.braid.core.DownloadListener;
import dev.braid.core.DownloadRequest;
import dev.braid.core.Progress;
import dev.braid.core.QueueOrder;
import dev.braid.core.Registration;
import dev.braid.core.RemoteFile;
import dev.braid.core.internal.hook.HookRunner;
import dev.braid.core.internal.transfer.DownloadJob;
import dev.braid.core.time.Ticker;
import dev.braid.store.DownloadRecord;
import dev.braid.store.DownloadState;
import dev.braid.store.ProcessOwner;
import dev.braid.store.QueueCensus;
import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;
import dev.braid.store.StateStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * The queue of one {@code Braid}: the public API's actions on it (submit, pause, resume, remove,
 * changes), over the parts of this package: the {@link SlotLoop} that starts stored entries as
 * slots free up and delivers events, the {@link Heartbeat} and the {@link ChangeFeed} that keep
 * this process and the store in step, the {@link HandleMap} of handles (each a
 * {@link QueuedDownload}), {@link QueueMoves}, {@link QueueRuns}, which starts and ends the runs,
 * {@link Submission}, {@link QueueRemoval} and {@link EntrySettings}.
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
public final class DownloadQueue implements AutoCloseable {
  private final StateStore store;
  private final QueueStore table;
  private final String owner = ProcessOwner.self();
  private final HandleMap handles;
  private final RequestSecrets secrets = new RequestSecrets();
  private final SlotLoop loop;
  private final ListenerBus bus;
  private final QueueMoves moves;
  private final Heartbeat heartbeat;
  private final ChangeFeed feed;
  private final QueueRuns runs;
  private final Submission submission;
  private final KeptFileAnswer keptFiles;
  private final QueueRemoval removal;
  private final EntrySettings settings;
  private final OutageWaits waits;

  public DownloadQueue(StateStore store, Function<DownloadRequest, DownloadJob> jobs, Executor drivers, int maxActive, boolean runAll,
      QueueSchedule schedule, OutageWaits waits, Ticker ticker) {
    this.store = store;
    this.waits = waits;
    this.table = store.queue();
    this.handles = new HandleMap(this, table::held);
    // the loop calls back into the parts below only once started, at the end of this constructor
    this.loop = new SlotLoop(table, maxActive, ticker, new SlotLoop.Work() {
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
      public Collection<QueuedDownload> handles() {
        return handles.values();
      }

      @Override
      public boolean scheduleTick() {
        return schedule.tick(handles.runningNow());
      }

      @Override
      public boolean allowsStarts() {
        return schedule.allowsStarts();
      }
    });
    this.bus = loop.bus();
    this.moves = new QueueMoves(table, owner, handles, bus, loop);
    this.heartbeat = new Heartbeat(table, store.grants(), owner, handles, moves, bus);
    this.feed = new ChangeFeed(table, handles, moves, bus);
    this.runs = new QueueRuns(table, owner, jobs, drivers, runAll, handles, moves, secrets, loop, waits);
    this.keptFiles = new KeptFileAnswer(table, moves, drivers);
    this.submission = new Submission(table, owner, handles, feed, secrets, moves, keptFiles);
    this.removal = new QueueRemoval(table, store.records(), owner, handles, bus, ticker);
    this.settings = new EntrySettings(table, handles, secrets, loop);
    loop.start();
  }

  // ---- the public API's actions

  public Download submit(DownloadRequest request, boolean paused) {
    return submission.submit(request, paused);
  }

  /** See {@link Submission#submitAll}. */
  public List<Download> submitAll(List<DownloadRequest> requests, boolean paused) {
    return List.copyOf(submission.submitAll(requests, paused));
  }

  /** See {@link Submission#enqueue}. */
  public Download enqueue(DownloadRequest request) {
    return submission.enqueue(request);
  }

  void pause(QueuedDownload h) {
    moves.pause(h);
  }

  void resume(QueuedDownload h) {
    moves.resume(h);
  }

  void remove(QueuedDownload h, boolean deleteFile, boolean deletePart) {
    removal.remove(h, deleteFile, deletePart);
  }

  /** The changes of a download's settings: URL, mirrors, headers, proxy, rate limit, retry policy, priority. */
  EntrySettings settings() {
    return settings;
  }

  /** The resume record of the file {@code h} writes, if the store has one. */
  private Optional<DownloadRecord> storedRecord(QueuedDownload h) {
    return h.file().flatMap(store.records()::findByTarget);
  }

  Optional<RemoteFile> storedRemote(QueuedDownload h) {
    return storedRecord(h).map(DownloadRecord::remote)
        .map(r -> new RemoteFile(r.finalUrl(), r.length(), r.etag(), r.lastModified(), r.ranges()));
  }

  List<Progress.Segment> storedSegments(QueuedDownload h) {
    return storedRecord(h).filter(r -> r.status() != DownloadState.COMPLETED)
        .map(r -> store.records().segments(r.id()).stream()
            .map(s -> new Progress.Segment(s.start(), s.end(), s.done(), false)).toList())
        .orElse(List.of());
  }

  Registration listen(QueuedDownload only, DownloadListener l, Duration every) {
    return bus.listen(only, l, every);
  }

  /** Hands the ends of the runs here to {@code runner}'s hooks ({@link HookDispatch}). */
  public void hooks(HookRunner runner, List<DownloadHook> onComplete, List<DownloadHook> onError) {
    bus.listen(null, new HookDispatch(runner, onComplete, onError), Duration.ofDays(1));
  }

  /** Calls {@code l} about every download; see {@code Braid.listen}. */
  public Registration listen(DownloadListener l, Duration every) {
    return bus.listen(null, l, every);
  }

  /** Every download in the store, oldest first, as handles (the same object for the same id while anyone holds it). */
  public List<Download> all() {
    List<Download> out = new ArrayList<>();
    for (QueueEntry e : table.all()) {
      out.add(handles.handle(e));
    }
    return out;
  }

  /** A page of the entries in {@code states} as the store records them (see {@link QueueStore#page}), as handles. */
  public List<Download> page(Set<DownloadState> states, QueueOrder order, long offset, int limit) {
    List<Download> out = new ArrayList<>();
    for (QueueEntry e : table.page(states, order == QueueOrder.START_ORDER, offset, limit)) {
      out.add(handles.handle(e));
    }
    return out;
  }

  /**
   * How many downloads are in each state as users see them, without a handle per entry: a
   * metrics scrape of a store with a long history made one for every row.
   */
  public Map<DownloadState, Long> countByState() {
    Map<DownloadState, Long> counts = new EnumMap<>(DownloadState.class);
    // one snapshot: an entry that ends or starts meanwhile is counted once
    QueueCensus census = table.census();
    census.counts().forEach((s, n) -> {
      if (s != DownloadState.ACTIVE) {
        counts.merge(s, n, Long::sum);
      }
    });
    // an active entry whose process is gone shows as queued: only these few are read whole
    for (QueueEntry e : census.active()) {
      counts.merge(handles.shown(e), 1L, Long::sum);
    }
    return counts;
  }

  public Optional<Download> find(long id) {
    QueuedDownload h = handles.get(id);
    return h != null ? Optional.of(h) : table.get(id).map(e -> (Download) handles.handle(e));
  }

  /** The rule for failed runs that may wait out an outage; its default policy changes live. */
  public OutageWaits outageWaits() {
    return waits;
  }

  /** A new limit of downloads at once: more start at once; a lower one lets the running ones finish. */
  public void maxActive(int n) {
    loop.maxActive(n);
  }

  public int maxActive() {
    return loop.maxActive();
  }

  /** Active downloads driven by this instance. */
  public List<Download> running() {
    return List.copyOf(handles.runningNow());
  }

  /**
   * Stops starting downloads, stops the checks of kept files in flight and pauses the running
   * downloads; their entries stay queued for the next run. The caller waits for the driver
   * threads; {@link #stop()} then ends the loop.
   */
  @Override
  public void close() {
    loop.close();
    keptFiles.close();
    handles.runningNow().forEach(h -> h.job().pause());
  }

  /** Ends the loop thread after the last events went out. */
  public void stop() {
    loop.stop();
  }
}
