package dev.braid.gui;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.DownloadView;
import dev.braid.core.QueueOrder;
import dev.braid.store.DownloadState;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the window is shown of the queue behind a {@link BraidClient}: each download's snapshot to
 * the {@link SnapshotCoalescer}, from a sweep of the whole queue (downloads other processes add,
 * and removals), from a page of the running ones (their progress), and from one download's view
 * when an event or an action concerns it. Used on the queue's io thread only, so its sets need no
 * locks; the coalescer is the one thing shared with the FX thread.
 */
final class ViewPublisher {
  /** The queue is read this many downloads per call. */
  static final int PAGE = 500;
  private static final Set<DownloadState> ALL = EnumSet.allOf(DownloadState.class);

  private final BraidClient client;
  private final SnapshotCoalescer out;
  /** Downloads this window added in this session: their end is news even if first seen finished. */
  private final Set<Long> addedHere = new HashSet<>();
  /** Ids the window was told about and not yet told are gone. */
  private final Set<Long> shown = new HashSet<>();
  /**
   * Each download's timings once a run of the engine had any: a finished download read again
   * from the store has none, and the pane should keep showing what its run measured.
   */
  private final Map<Long, PhaseTimings> timings = new HashMap<>();

  ViewPublisher(BraidClient client, SnapshotCoalescer out) {
    this.client = client;
    this.out = out;
  }

  /** A download the window itself added, shown at once. */
  void added(long id) throws ClientException {
    addedHere.add(id);
    refresh(id);
  }

  /** One download as it stands now, or off the table when it is gone. */
  void refresh(long id) throws ClientException {
    Optional<DownloadView> view = client.download(id);
    if (view.isPresent()) {
      publish(view.get());
    } else {
      forget(id);
    }
  }

  /** The download left the queue: off the table, and nothing kept for it. */
  void forget(long id) {
    shown.remove(id);
    addedHere.remove(id);
    timings.remove(id);
    out.remove(id);
  }

  /** The running downloads' progress. */
  void running() throws ClientException {
    for (DownloadView v : client.page(EnumSet.of(DownloadState.ACTIVE), QueueOrder.OLDEST_FIRST, 0, PAGE)) {
      publish(v);
    }
  }

  /** The whole queue, a page at a time; downloads no longer in it leave the table. */
  void sweep() throws ClientException {
    Set<Long> now = new HashSet<>();
    for (long offset = 0;; offset += PAGE) {
      List<DownloadView> page = client.page(ALL, QueueOrder.OLDEST_FIRST, offset, PAGE);
      for (DownloadView v : page) {
        now.add(v.id());
        publish(v);
      }
      if (page.size() < PAGE) {
        break;
      }
    }
    for (long id : List.copyOf(shown)) {
      if (!now.contains(id)) {
        forget(id);
      }
    }
  }

  private void publish(DownloadView v) {
    shown.add(v.id());
    DownloadSnapshot s = Snapshots.of(v, addedHere.contains(v.id()));
    if (s.timings().requests() > 0) {
      timings.put(s.id(), s.timings());
    } else if (timings.containsKey(s.id())) {
      s = s.withTimings(timings.get(s.id()));
    }
    out.offer(s);
  }
}
