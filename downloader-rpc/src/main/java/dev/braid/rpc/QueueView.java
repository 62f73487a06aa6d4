package dev.braid.rpc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The queue in aria2's three lists: active, waiting (queued and paused, in the order they would
 * start: higher priority first, then older first) and stopped (complete and failed, oldest
 * first, then the ones removed through this server).
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
    return StatusView.of(find(id));
  }

  List<Download> all() {
    return braid.downloads();
  }

  int removedCount() {
    return removed.size();
  }

  List<Download> active() {
    return braid.downloads().stream().filter(d -> d.state() == DownloadState.ACTIVE).toList();
  }

  List<Download> waiting() {
    List<Download> w = new ArrayList<>(braid.downloads().stream()
        .filter(d -> d.state() == DownloadState.QUEUED || d.state() == DownloadState.PAUSED).toList());
    w.sort(Comparator.comparingInt((Download d) -> d.priority()).reversed().thenComparingLong(Download::id));
    return w;
  }

  /** Complete and failed downloads as statuses, then the removed ones. */
  List<ObjectNode> stopped() {
    List<ObjectNode> s = new ArrayList<>();
    for (Download d : braid.downloads()) {
      if (d.state() == DownloadState.COMPLETED || d.state() == DownloadState.FAILED) {
        s.add(StatusView.of(d));
      }
    }
    s.addAll(removed.all());
    return s;
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
