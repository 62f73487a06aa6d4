package dev.braid.core.internal.queue;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.braid.store.DownloadState;
import dev.braid.store.QueueEntry;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The download handles of one queue. Every handle by id, held weakly: while anyone holds a
 * download's handle, every look-up returns that same object, and a handle nobody holds is left to
 * the collector (a batch of 60,000 files kept every finished download's ~3 KiB handle and ran the
 * heap full); a Caffeine cache with weak values, whose maintenance runs on the calling threads.
 * Held strongly only what the queue must finish: the downloads {@linkplain #running running} here
 * and those {@linkplain #wanted wanted} here (submitted or resumed through this process, whose
 * results callers may wait on without holding the handle).
 *
 * <p>Locks: none of its own; all its maps and sets are concurrent. A download becomes running under its
 * lifecycle lock (when it starts) and stops on its driver thread (when it ends).
 */
final class HandleMap {
  private final Cache<Long, QueuedDownload> byId = Caffeine.newBuilder().weakValues().executor(Runnable::run).build();
  private final Map<Long, QueuedDownload> running = new ConcurrentHashMap<>();
  private final Map<Long, QueuedDownload> wanted = new ConcurrentHashMap<>();
  /** Ids whose removal runs here: their stopped run released the entry, which must not start again before it is deleted. */
  private final Set<Long> removing = ConcurrentHashMap.newKeySet();
  private final DownloadQueue queue;
  private final Predicate<QueueEntry> held;

  /**
   * @param queue the queue the handles act on
   * @param held whether an entry's owner still holds it ({@link dev.braid.store.QueueStore#held})
   */
  HandleMap(DownloadQueue queue, Predicate<QueueEntry> held) {
    this.queue = queue;
    this.held = held;
  }

  /** The handle of {@code e}, made (at most once at a time per id) when none is held. */
  public QueuedDownload handle(QueueEntry e) {
    return byId.get(e.id(), id -> new QueuedDownload(queue, e, shown(e)));
  }

  /** A handle of {@code e} in {@code state} that this map does not keep: one that only reports a refusal. */
  QueuedDownload detached(QueueEntry e, DownloadState state) {
    return new QueuedDownload(queue, e, state);
  }

  /** The state users see: an active entry whose owner is gone waits to be resumed. */
  public DownloadState shown(QueueEntry e) {
    if (e.state() == DownloadState.ACTIVE && !running.containsKey(e.id()) && !held.test(e)) {
      return DownloadState.QUEUED;
    }
    return e.state();
  }

  /** The handle of {@code id}, or null when none is held. */
  public QueuedDownload get(long id) {
    return byId.getIfPresent(id);
  }

  public boolean contains(long id) {
    return get(id) != null;
  }

  /** Forgets the handle of {@code id}; returns it, or null. */
  public QueuedDownload remove(long id) {
    return byId.asMap().remove(id);
  }

  /** The handles held now. */
  public List<QueuedDownload> values() {
    return List.copyOf(byId.asMap().values());
  }

  /** The download running here as {@code id}, or null. */
  public QueuedDownload running(long id) {
    return running.get(id);
  }

  public boolean isRunning(long id) {
    return running.containsKey(id);
  }

  /** How many downloads run here. */
  public int runningCount() {
    return running.size();
  }

  /** The downloads running here (a live view). */
  public Collection<QueuedDownload> runningNow() {
    return running.values();
  }

  /** The ids running here, as of now. */
  public Set<Long> runningIds() {
    return Set.copyOf(running.keySet());
  }

  public void startedRunning(QueuedDownload h) {
    running.put(h.id(), h);
  }

  public void stoppedRunning(long id) {
    running.remove(id);
  }

  /** The download wanted here as {@code id}, or null. */
  public QueuedDownload wanted(long id) {
    return wanted.get(id);
  }

  public boolean isWanted(long id) {
    return wanted.containsKey(id);
  }

  /** The ids wanted here, as of now. */
  public Set<Long> wantedIds() {
    return Set.copyOf(wanted.keySet());
  }

  /** {@code h} is to be driven here: submitted or resumed through this process. */
  public void want(QueuedDownload h) {
    wanted.put(h.id(), h);
  }

  /** No longer to be driven here; returns the handle that was wanted, or null. */
  public QueuedDownload unwant(long id) {
    return wanted.remove(id);
  }

  /** Whether nothing runs or waits here. */
  public boolean idle() {
    return running.isEmpty() && wanted.isEmpty();
  }

  /** The removal of {@code id} begins here: nothing starts it until {@link #removalEnded}. */
  public void removalBegins(long id) {
    removing.add(id);
  }

  public void removalEnded(long id) {
    removing.remove(id);
  }

  /** Whether the removal of {@code id} runs here now. */
  public boolean isBeingRemoved(long id) {
    return removing.contains(id);
  }
}
