package dev.braid.rpc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.braid.core.Download;
import dev.braid.core.DownloadListener;
import dev.braid.store.DownloadState;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What aria2 shows of a removed download (status "removed" in tellStopped) until
 * removeDownloadResult or purgeDownloadResult: Braid's queue forgets a removed entry at once, so
 * its last status is kept here, in memory (a restart forgets them, as aria2 does), at most
 * {@value #LIMIT} of them, oldest dropped first (aria2's max-download-result). It hears every
 * removal the engine makes, whoever asked (aria2.remove, the client port's remove, a relayed
 * {@code braid remove}), on the engine's event thread.
 */
final class RemovedResults implements DownloadListener {
  static final int LIMIT = 1000;
  private final Map<Long, ObjectNode> results = new LinkedHashMap<>();
  /**
   * A removal, wherever it was asked: its last status, as "removed", unless the download had
   * finished. Removing a finished one forgets its result (aria2's removeDownloadResult; a face's
   * remove of a completed row): it leaves nothing to show.
   */
  @Override
  public void removed(Download download) {
    if (download.state() == DownloadState.COMPLETED || download.state() == DownloadState.FAILED) {
      return;
    }
    add(download.id(), StatusView.of(download, StatusView.REMOVED));
  }

  synchronized void add(long id, ObjectNode status) {
    results.remove(id);
    results.put(id, status);
    Iterator<Long> oldest = results.keySet().iterator();
    while (results.size() > LIMIT) {
      oldest.next();
      oldest.remove();
    }
  }

  synchronized Optional<ObjectNode> get(long id) {
    ObjectNode s = results.get(id);
    return s == null ? Optional.empty() : Optional.of(s.deepCopy());
  }

  synchronized boolean remove(long id) {
    return results.remove(id) != null;
  }

  synchronized void clear() {
    results.clear();
  }

  synchronized int size() {
    return results.size();
  }

  synchronized List<ObjectNode> all() {
    List<ObjectNode> out = new ArrayList<>();
    results.values().forEach(s -> out.add(s.deepCopy()));
    return out;
  }
}
