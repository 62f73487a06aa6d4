package dev.braid.rpc;

import static dev.braid.rpc.Dispatcher.NODES;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.core.Download;
import dev.braid.core.Gid;
import dev.braid.core.InvalidRequestException;
import dev.braid.store.DownloadState;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code aria2.changeUri(gid, fileIndex, delUris, addUris[, position])}: removes each of
 * delUris once from the download's URIs (its URL, then its mirrors), inserts addUris at position
 * (0-based among what is left; default or past the end: at the end) and answers
 * {@code [deleted, added]}, as aria2. When the first URI changes, the download's URL changes
 * through {@link Download#changeUrl}, also while it runs: its bytes are kept only where the new
 * URL proves to serve the same file (a refreshed link), otherwise the run fails and nothing is
 * spliced. The mirrors of a running download stay as they are (Braid spreads a run over the
 * mirrors it started with): changing them is refused until it is paused.
 */
final class UriMethods {
  private final QueueView queue;

  UriMethods(QueueView queue) {
    this.queue = queue;
  }

  void addTo(Dispatcher d) {
    d.add("aria2.changeUri", p -> changeUri(queue.find(p.gid(0)), p.integer(1), p.strings(2), p.strings(3),
        p.has(4) ? p.integer(4) : -1));
  }

  private static JsonNode changeUri(Download d, int fileIndex, List<String> delete, List<String> add, int position)
      throws RpcException {
    if (fileIndex != 1) {
      throw RpcException.failed("No such file index " + fileIndex + ": a Braid download has one file, index 1");
    }
    List<String> uris = new ArrayList<>();
    uris.add(d.url());
    uris.addAll(d.mirrors());
    int deleted = 0;
    for (String u : delete) {
      if (uris.remove(u)) {
        deleted++;
      }
    }
    int at = position < 0 || position > uris.size() ? uris.size() : position;
    uris.addAll(at, add);
    if (uris.isEmpty()) {
      throw RpcException.failed("GID#" + Gid.of(d.id()) + " would be left without a URI");
    }
    List<String> mirrors = uris.subList(1, uris.size());
    boolean newUrl = !uris.get(0).equals(d.url());
    boolean newMirrors = !mirrors.equals(d.mirrors());
    if (newMirrors && d.state() == DownloadState.ACTIVE) {
      throw RpcException.failed("GID#" + Gid.of(d.id()) + " is running: its mirrors change once it is paused"
          + " (its own URI can change while it runs)");
    }
    try {
      if (newMirrors) {
        d.mirrors(List.copyOf(mirrors));
      }
      if (newUrl) {
        d.changeUrl(URI.create(uris.get(0)));
      }
    } catch (InvalidRequestException | IllegalArgumentException | IllegalStateException e) {
      throw RpcException.failed(e.getMessage());
    }
    return NODES.arrayNode().add(deleted).add(add.size());
  }
}
