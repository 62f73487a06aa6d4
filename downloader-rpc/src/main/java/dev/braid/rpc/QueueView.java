package dev.braid.rpc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.Gid;
import dev.braid.core.QueueOrder;
import dev.braid.store.DownloadState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The queue in aria2's three lists: active, waiting (queued and paused, in the order they would
 * start: higher priority first, then older first) and stopped (complete and failed, oldest
 * first, then the ones removed through this server). A window of a list is one page of the
 * store, so a queue with a long history answers as fast as a short one.
 */
final class QueueView {
  private final Braid braid;
  private final RemovedResults removed;

  QueueView(Braid braid, RemovedResults removed) {
    this.braid = braid;
    this.removed = removed;
  }

  Download find(long id) throws RpcException {
    Optional<Download> d = braid.download(id);
    if (d.isEmpty()) {
      throw RpcException.failed("GID " + Gid.of(id) + " is not found");
    }
    return d.get();
  }

  /** The status of a gid: a download in the queue, or one removed through this server. */
  ObjectNode status(long id) throws RpcException {
    // removed first: ids are never reused, and the queue may still hold the handle a moment
    Optional<ObjectNode> gone = removed.get(id);
    if (gone.isPresent()) {
      return gone.get();
    }
    Download d = find(id);
    ObjectNode status = StatusView.of(d);
    // the pieces of a stopped download are in its record: read for one status, not for the lists
    PieceMap.addRecorded(status, d);
    return status;
  }

  private static final Set<DownloadState> WAITING = EnumSet.of(DownloadState.QUEUED, DownloadState.PAUSED);
  private static final Set<DownloadState> STOPPED = EnumSet.of(DownloadState.COMPLETED, DownloadState.FAILED);

  /** How many downloads are in each state, from the store's index. */
  Map<DownloadState, Long> counts() {
    return braid.countByState();
  }

  int removedCount() {
    return removed.size();
  }

  /** The active downloads, oldest first (one recorded active by a process that is gone shows as waiting). */
  List<Download> active() {
    // through the state index (start order), as the active ones are few in a long queue
    return braid.downloads(EnumSet.of(DownloadState.ACTIVE), QueueOrder.START_ORDER, 0, Integer.MAX_VALUE).stream()
        .filter(d -> d.state() == DownloadState.ACTIVE).sorted(Comparator.comparingLong(Download::id)).toList();
  }

  /** The whole waiting list, in start order (changePosition renumbers all of it). */
  List<Download> waiting() {
    return braid.downloads(WAITING, QueueOrder.START_ORDER, 0, Integer.MAX_VALUE);
  }

  /** aria2's window of the waiting list, read as one page of the store. */
  List<Download> waiting(int offset, int num) {
    return num <= 0 ? List.of() : braid.downloads(WAITING, QueueOrder.START_ORDER, offset, num);
  }

  /**
   * aria2's window of the stopped list: complete and failed downloads (a page of the store),
   * then the removed ones (in memory), as statuses.
   */
  List<ObjectNode> stopped(int offset, int num) {
    List<ObjectNode> out = new ArrayList<>();
    if (num <= 0) {
      return out;
    }
    List<ObjectNode> gone = removed.all();
    if (offset >= 0) {
      braid.downloads(STOPPED, QueueOrder.OLDEST_FIRST, offset, num).forEach(d -> out.add(StatusView.of(d)));
      if (out.size() < num && !gone.isEmpty()) {
        // past the store's part: the removed ones follow it
        long inStore = out.isEmpty() ? stoppedInStore() : offset + out.size();
        out.addAll(window(gone, (int) Math.max(0, offset - inStore), num - out.size()));
      }
    } else if (offset >= -gone.size()) {
      // from the end: the removed ones first, newest first, then the store's part backwards from its last
      out.addAll(window(gone, offset, num));
      if (out.size() < num) {
        braid.downloads(STOPPED, QueueOrder.OLDEST_FIRST, -1, num - out.size()).forEach(d -> out.add(StatusView.of(d)));
      }
    } else {
      braid.downloads(STOPPED, QueueOrder.OLDEST_FIRST, offset + gone.size(), num).forEach(d -> out.add(StatusView.of(d)));
    }
    return out;
  }

  private long stoppedInStore() {
    Map<DownloadState, Long> counts = braid.countByState();
    return counts.getOrDefault(DownloadState.COMPLETED, 0L) + counts.getOrDefault(DownloadState.FAILED, 0L);
  }

  /** Every download in the queue, in pages of {@code limit} from {@code offset}, oldest first. */
  List<Download> all(int offset, int limit) {
    return braid.downloads(EnumSet.allOf(DownloadState.class), QueueOrder.OLDEST_FIRST, offset, limit);
  }

  /**
   * aria2's window of a list: {@code [offset, offset + num)} for an offset of 0 or more; for a
   * negative one, counted from the end (-1 is the last) and going backwards, newest first.
   */
  static <T> List<T> window(List<T> all, int offset, int num) {
    List<T> out = new ArrayList<>();
    if (num <= 0) {
      return out;
    }
    if (offset >= 0) {
      for (int i = offset; i < all.size() && out.size() < num; i++) {
        out.add(all.get(i));
      }
    } else {
      for (int i = all.size() + offset; i >= 0 && out.size() < num; i--) {
        if (i < all.size()) {
          out.add(all.get(i));
        }
      }
    }
    return out;
  }
}
