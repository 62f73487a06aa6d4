package dev.braid.rpc;

import static dev.braid.rpc.Dispatcher.NODES;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.braid.client.DownloadEvent;
import dev.braid.client.EventFilter;
import dev.braid.client.remote.RpcNames;
import dev.braid.core.Download;
import dev.braid.core.DownloadListener;
import dev.braid.core.Gid;
import dev.braid.store.DownloadState;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Turns Braid's download events into aria2's notifications ({@code aria2.onDownloadStart} ...)
 * for every WebSocket and local-socket client, each run's once ({@link EventFilter}, which the
 * in-process client port uses too); the engine tells a run's end once its result is there. Runs on
 * Braid's event thread; sending is non-blocking.
 */
final class Notifier implements DownloadListener {
  static final List<String> NAMES = List.of(RpcNames.ON_START, RpcNames.ON_PAUSE, RpcNames.ON_STOP,
      RpcNames.ON_COMPLETE, RpcNames.ON_ERROR, "aria2.onBtDownloadComplete");
  private static final Map<DownloadEvent.Kind, String> METHODS = Map.of(DownloadEvent.Kind.STARTED, RpcNames.ON_START,
      DownloadEvent.Kind.PAUSED, RpcNames.ON_PAUSE, DownloadEvent.Kind.COMPLETED, RpcNames.ON_COMPLETE,
      DownloadEvent.Kind.FAILED, RpcNames.ON_ERROR, DownloadEvent.Kind.REMOVED, RpcNames.ON_STOP);

  private final ObjectMapper mapper;
  private final Consumer<String> broadcast;
  /** Downloads whose removal is no stop of a download (a result cleared): not announced. */
  private final Set<Long> quiet = ConcurrentHashMap.newKeySet();
  private final EventFilter filter;

  Notifier(ObjectMapper mapper, Consumer<String> broadcast) {
    this(mapper, broadcast, EventFilter.ENDED_REMEMBERED);
  }

  Notifier(ObjectMapper mapper, Consumer<String> broadcast, int endedRemembered) {
    this.mapper = mapper;
    this.broadcast = broadcast;
    this.filter = new EventFilter(endedRemembered);
  }

  void quiet(long id) {
    quiet.add(id);
  }

  @Override
  public void stateChanged(Download download, DownloadState state) {
    filter.stateChanged(download.id(), state).ifPresent(kind -> send(METHODS.get(kind), download.id()));
  }

  /** How many downloads' last announced state or removal is kept. */
  long remembered() {
    return filter.remembered();
  }

  @Override
  public void removed(Download download) {
    filter.removed(download.id());
    if (!quiet.remove(download.id())) {
      send(RpcNames.ON_STOP, download.id());
    }
  }

  private void send(String method, long id) {
    ObjectNode n = NODES.objectNode();
    n.put("jsonrpc", "2.0");
    n.put("method", method);
    n.set("params", NODES.arrayNode().add(NODES.objectNode().put("gid", Gid.of(id))));
    try {
      broadcast.accept(mapper.writeValueAsString(n));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a notification that cannot be written", e);
    }
  }
}
