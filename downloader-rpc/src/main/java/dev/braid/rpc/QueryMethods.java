package dev.braid.rpc;

import static dev.braid.rpc.Dispatcher.NODES;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.braid.core.Download;
import dev.braid.core.Gid;
import dev.braid.store.DownloadState;
import java.util.List;
import java.util.Map;

/** The methods that read the queue: tellStatus, the three lists, getFiles, getUris, getServers, getGlobalStat. */
final class QueryMethods {
  private final QueueView queue;

  QueryMethods(QueueView queue) {
    this.queue = queue;
  }

  void addTo(Dispatcher d) {
    d.add("aria2.tellStatus", p -> StatusView.filter(queue.status(p.gid(0)), p.strings(1)));
    d.add("aria2.tellActive", p -> statuses(queue.active(), p.strings(0)));
    d.add("aria2.tellWaiting", p -> statuses(queue.waiting(p.integer(0), p.integer(1)), p.strings(2)));
    d.add("aria2.tellStopped", p -> {
      ArrayNode a = NODES.arrayNode();
      List<String> keys = p.strings(2);
      queue.stopped(p.integer(0), p.integer(1)).forEach(s -> a.add(StatusView.filter(s, keys)));
      return a;
    });
    d.add("aria2.getFiles", p -> files(p.gid(0)));
    d.add("aria2.getUris", p -> StatusView.uris(queue.find(p.gid(0))));
    d.add("aria2.getServers", this::servers);
    d.add("aria2.getGlobalStat", p -> globalStat());
    // Braid has no BitTorrent: a download never has peers
    d.add("aria2.getPeers", p -> {
      queue.find(p.gid(0));
      return NODES.arrayNode();
    });
  }

  private static ArrayNode statuses(List<Download> downloads, List<String> keys) {
    ArrayNode a = NODES.arrayNode();
    downloads.forEach(d -> a.add(StatusView.filter(StatusView.of(d), keys)));
    return a;
  }

  private JsonNode files(long id) throws RpcException {
    ObjectNode status = queue.status(id);
    return status.get("files");
  }

  /** The servers of an active download: its URL, at the download's speed (Braid spreads it over its mirrors). */
  private JsonNode servers(Params p) throws RpcException {
    Download d = queue.find(p.gid(0));
    if (d.state() != DownloadState.ACTIVE) {
      throw RpcException.failed("No active download for GID#" + Gid.of(d.id()));
    }
    ArrayNode servers = NODES.arrayNode();
    servers.add(NODES.objectNode().put("uri", d.url()).put("currentUri", d.remote().map(r -> r.finalUrl()).orElse(d.url()))
        .put("downloadSpeed", Long.toString((long) d.progress().bytesPerSecond())));
    ObjectNode file = NODES.objectNode().put("index", "1");
    file.set("servers", servers);
    return NODES.arrayNode().add(file);
  }

  /** From the store's counts and the active downloads: no status struct, no handle per stopped download. */
  private JsonNode globalStat() {
    long speed = 0;
    for (Download d : queue.active()) {
      speed += (long) d.progress().bytesPerSecond();
    }
    Map<DownloadState, Long> counts = queue.counts();
    long active = counts.getOrDefault(DownloadState.ACTIVE, 0L);
    long waiting = counts.getOrDefault(DownloadState.QUEUED, 0L) + counts.getOrDefault(DownloadState.PAUSED, 0L);
    long stopped = queue.removedCount() + counts.getOrDefault(DownloadState.COMPLETED, 0L)
        + counts.getOrDefault(DownloadState.FAILED, 0L);
    return NODES.objectNode()
        .put("downloadSpeed", Long.toString(speed))
        .put("uploadSpeed", "0")
        .put("numActive", Long.toString(active))
        .put("numWaiting", Long.toString(waiting))
        .put("numStopped", Long.toString(stopped))
        .put("numStoppedTotal", Long.toString(stopped));
  }
}
