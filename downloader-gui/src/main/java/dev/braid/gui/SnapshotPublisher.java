package dev.braid.gui;

import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadListener;
import dev.braid.core.Progress;
import dev.braid.core.RemoteFile;
import dev.braid.store.DownloadState;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the window is shown of an in-process {@link Braid}: each download's snapshot to the
 * {@link SnapshotCoalescer}, from Braid's events ({@link #listener}, on its event thread) and from
 * a poll of the store ({@link #poll}, on the window's io thread). Both threads meet only in the
 * concurrent sets and maps here and in the coalescer, which keeps the latest snapshot per id.
 */
final class SnapshotPublisher {
  private final SnapshotCoalescer out;
  /** Downloads this window added in this session: their end is news even if first seen finished. */
  private final Set<Long> addedHere = ConcurrentHashMap.newKeySet();
  private final Map<Long, Optional<RemoteFile>> remotes = new ConcurrentHashMap<>();
  private final Map<Long, DownloadState> lastState = new ConcurrentHashMap<>();
  /** Ids the window was told about and not yet told are gone. */
  private final Set<Long> shown = ConcurrentHashMap.newKeySet();
  /**
   * Each download's timings once its run here had any: a finished download's handle is held by
   * nobody, and one the collector took comes back from the store's poll without them.
   */
  private final Map<Long, PhaseTimings> timings = new ConcurrentHashMap<>();

  SnapshotPublisher(SnapshotCoalescer out) {
    this.out = out;
  }

  /** A download the window itself added, shown at once. */
  void added(Download d) {
    addedHere.add(d.id());
    publish(d);
  }

  void publish(Download d) {
    publish(d, d.progress());
  }

  private void publish(Download d, Progress p) {
    shown.add(d.id());
    out.offer(withKnownTimings(Snapshots.of(d, p, remote(d), addedHere.contains(d.id()))));
  }

  private DownloadSnapshot withKnownTimings(DownloadSnapshot s) {
    if (s.timings().requests() > 0) {
      timings.put(s.id(), s.timings());
      return s;
    }
    PhaseTimings known = timings.get(s.id());
    return known == null ? s : s.withTimings(known);
  }

  /** The download left the store: off the table, and nothing kept for it. */
  void forget(long id) {
    shown.remove(id);
    out.remove(id);
    remotes.remove(id);
    lastState.remove(id);
    addedHere.remove(id);
    timings.remove(id);
  }

  /** io thread: every download in the store, so those of other processes appear and removed ones go. */
  void poll(Braid braid) {
    try {
      Set<Long> now = new HashSet<>();
      for (Download d : braid.downloads()) {
        now.add(d.id());
        publish(d);
      }
      // also catches a late event that showed a download again after its removal
      for (long id : List.copyOf(shown)) {
        if (!now.contains(id)) {
          forget(id);
        }
      }
    } catch (RuntimeException e) {
      // a busy or briefly locked store: the next poll tries again
    }
  }

  /**
   * The validators, cached: asking the store per progress event and per poll would be a query per
   * download per second for nothing. A change of state (a new run may meet a changed file) reads
   * them again; a running download that has none yet asks until its probe has answered.
   */
  private RemoteFile remote(Download d) {
    DownloadState state = d.state();
    if (lastState.put(d.id(), state) != state) {
      remotes.remove(d.id());
    }
    Optional<RemoteFile> cached = remotes.get(d.id());
    if (cached != null) {
      return cached.orElse(null);
    }
    Optional<RemoteFile> found = d.remote();
    if (found.isPresent() || state != DownloadState.ACTIVE) {
      remotes.put(d.id(), found);
    }
    return found.orElse(null);
  }

  /** Braid's event thread: hands each change to the coalescer and returns at once. */
  DownloadListener listener() {
    return new DownloadListener() {
      @Override
      public void stateChanged(Download d, DownloadState state) {
        publish(d);
      }

      @Override
      public void progress(Download d, Progress p) {
        publish(d, p);
      }

      @Override
      public void removed(Download d) {
        forget(d.id());
      }
    };
  }
}
