package dev.braid.rpc;

import static dev.braid.rpc.Dispatcher.NODES;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.braid.core.Download;
import dev.braid.core.DownloadState;
import java.util.List;

/** The methods that read the queue: tellStatus, the three lists, getFiles, getUris, getServers, getGlobalStat. */
final class QueryMethods {
  private final QueueView queue;

  QueryMethods(QueueView queue) {
    this.queue = queue;
  }

  void addTo(Dispatcher d) {
    d.add("aria2.tellStatus", p -> StatusView.filter(queue.status(p.gid(0)), p.strings(1)));
    d.add("aria2.tellActive", p -> statuses(queue.active(), p.strings(0)));
    d.add("aria2.tellWaiting", p -> statuses(QueueView.window(queue.waiting(), p.integer(0), p.integer(1)), p.strings(2)));
    d.add("aria2.tellStopped", p -> {
      ArrayNode a = NODES.arrayNode();
      List<String> keys = p.strings(2);
      QueueView.window(queue.stopped(), p.integer(0), p.integer(1)).forEach(s -> a.add(StatusView.filter(s, keys)));
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

  /** One pass over the queue: a status struct per stopped download would be wasted here. */
  private JsonNode globalStat() {
    long speed = 0;
    int active = 0;
    int waiting = 0;
    int stopped = queue.removedCount();
    for (Download d : queue.all()) {
      switch (d.state()) {
        case ACTIVE -> {
          active++;
          speed += (long) d.progress().bytesPerSecond();
        }
        case QUEUED, PAUSED -> waiting++;
        case COMPLETED, FAILED -> stopped++;
      }
    }
    return NODES.objectNode()
        .put("downloadSpeed", Long.toString(speed))
        .put("uploadSpeed", "0")
        .put("numActive", Integer.toString(active))
        .put("numWaiting", Integer.toString(waiting))
        .put("numStopped", Integer.toString(stopped))
        .put("numStoppedTotal", Integer.toString(stopped));
  }
}
