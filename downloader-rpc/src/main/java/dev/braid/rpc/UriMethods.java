package dev.braid.rpc;

import static dev.braid.rpc.Dispatcher.NODES;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.core.Download;
import dev.braid.core.DownloadState;
import dev.braid.core.InvalidRequestException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code aria2.changeUri(gid, fileIndex, delUris, addUris[, position])}: removes each of
 * delUris once from the download's mirrors, inserts addUris at position among the URIs (default:
 * the end) and answers {@code [deleted, added]}. Braid keeps the download's own URL (its partial
 * file is recorded under it: deleting it is refused) and changes the mirrors of a download that
 * is not running only (aria2 also of a running one): pause it first.
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
    if (d.state() == DownloadState.ACTIVE) {
      throw RpcException.failed("GID#" + Gid.of(d.id()) + " is running: pause it before changing its URIs");
    }
    if (delete.contains(d.url())) {
      throw RpcException.failed("the URI " + d.url() + " of GID#" + Gid.of(d.id())
          + " cannot be removed (its partial file is recorded under it); add and remove mirrors instead");
    }
    List<String> mirrors = new ArrayList<>(d.mirrors());
    int deleted = 0;
    for (String u : delete) {
      if (mirrors.remove(u)) {
        deleted++;
      }
    }
    // aria2's position counts the main URI too: 0 and 1 both come right after it here
    int at = position < 0 || position > mirrors.size() + 1 ? mirrors.size() : Math.max(0, position - 1);
    mirrors.addAll(at, add);
    try {
      d.mirrors(mirrors);
    } catch (InvalidRequestException e) {
      throw RpcException.failed(e.getMessage());
    }
    return NODES.arrayNode().add(deleted).add(add.size());
  }
}
