package dev.braid.client;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.braid.store.DownloadState;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns the engine's state changes into the events a face hears, each run's once, as aria2
 * announces them: the engine may report a state twice (a resumed download is seen active by its
 * start and by the queue's refresh), and reports the pause of a download added paused, which no
 * run follows. Used by {@link LocalClient#follow} and by the daemon's notifications, so that a
 * face hears the same either way.
 *
 * <p>The last announced state is kept: for a download still running or paused (as many as the
 * queue has unfinished), and for an ended one only among the latest endings, because a repeated
 * end comes right after the first while a daemon's history of ended downloads grows without
 * bound. A removed download is announced no more: the engine can report a state of a running
 * download after its removal (its run winding down). The caches' upkeep runs on the calling
 * thread (the engine's event thread): no pool thread.
 */
public final class EventFilter {
  /** How many ended and removed downloads a filter remembers by default. */
  public static final int ENDED_REMEMBERED = 4096;

  private final Map<Long, DownloadState> live = new ConcurrentHashMap<>();
  private final Cache<Long, DownloadState> ended;
  private final Cache<Long, Boolean> removed;

  /** A filter that remembers the latest {@value #ENDED_REMEMBERED} endings and removals. */
  public EventFilter() {
    this(ENDED_REMEMBERED);
  }

  /**
   * A filter that remembers the latest {@code endedRemembered} endings and removals.
   *
   * @param endedRemembered at least 1
   */
  public EventFilter(int endedRemembered) {
    if (endedRemembered < 1) {
      throw new IllegalArgumentException("a filter remembers at least one ending, not " + endedRemembered);
    }
    this.ended = Caffeine.newBuilder().maximumSize(endedRemembered).executor(Runnable::run).build();
    this.removed = Caffeine.newBuilder().maximumSize(endedRemembered).executor(Runnable::run).build();
  }

  /**
   * Download {@code id} was already in {@code state} when this filter began to listen: its pause
   * then is a run's, not that of a download added paused. A state heard since stands.
   *
   * @param id the download's id
   * @param state the state it was in; an unfinished one
   */
  public void alreadyIn(long id, DownloadState state) {
    if (state == DownloadState.COMPLETED || state == DownloadState.FAILED) {
      throw new IllegalArgumentException("only an unfinished download's state is seeded, not " + state);
    }
    live.putIfAbsent(id, state);
  }

  /**
   * {@return the event download {@code id}'s new state makes, or empty when it makes none}
   *
   * @param id the download's id
   * @param state its new state
   */
  public Optional<DownloadEvent.Kind> stateChanged(long id, DownloadState state) {
    if (state == DownloadState.QUEUED || removed.getIfPresent(id) != null) {
      // nothing is announced when a download waits, and a run that waits again (a retry) is the
      // same run; nor anything of a download after its removal
      return Optional.empty();
    }
    DownloadState before = live.getOrDefault(id, ended.getIfPresent(id));
    if (before == state || before == null && state == DownloadState.PAUSED) {
      // the same state again, or a download added paused
      return Optional.empty();
    }
    if (state == DownloadState.COMPLETED || state == DownloadState.FAILED) {
      live.remove(id);
      ended.put(id, state);
    } else {
      ended.invalidate(id);
      live.put(id, state);
    }
    return Optional.of(switch (state) {
      case ACTIVE -> DownloadEvent.Kind.STARTED;
      case PAUSED -> DownloadEvent.Kind.PAUSED;
      case COMPLETED -> DownloadEvent.Kind.COMPLETED;
      case FAILED -> DownloadEvent.Kind.FAILED;
      case QUEUED -> throw new AssertionError("returned above");
    });
  }

  /**
   * Download {@code id} left the queue: its removal is the last event it makes.
   *
   * @param id the download's id
   */
  public void removed(long id) {
    live.remove(id);
    ended.invalidate(id);
    removed.put(id, Boolean.TRUE);
  }

  /** {@return how many downloads' last announced state or removal is kept} */
  public long remembered() {
    return live.size() + ended.estimatedSize() + removed.estimatedSize();
  }
}
