package dev.braid.rpc;

import static dev.braid.rpc.Dispatcher.NODES;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.braid.core.Download;
import dev.braid.core.DownloadListener;
import dev.braid.core.DownloadState;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Turns Braid's download events into aria2's notifications ({@code aria2.onDownloadStart} ...)
 * for every WebSocket client. Runs on Braid's event thread; sending is non-blocking.
 */
final class Notifier implements DownloadListener {
  static final List<String> NAMES = List.of("aria2.onDownloadStart", "aria2.onDownloadPause", "aria2.onDownloadStop",
      "aria2.onDownloadComplete", "aria2.onDownloadError", "aria2.onBtDownloadComplete");

  private final ObjectMapper mapper;
  private final Consumer<String> broadcast;
  /** Downloads whose removal is no stop of a download (a result cleared): not announced. */
  private final Set<Long> quiet = ConcurrentHashMap.newKeySet();
  /**
   * The state last announced of each download: the engine may report a state twice (a resumed
   * download is seen active by its start and by the queue's refresh), aria2 announces a run once.
   */
  private final Map<Long, DownloadState> announced = new ConcurrentHashMap<>();

  Notifier(ObjectMapper mapper, Consumer<String> broadcast) {
    this.mapper = mapper;
    this.broadcast = broadcast;
  }

  void quiet(long id) {
    quiet.add(id);
  }

  @Override
  public void stateChanged(Download download, DownloadState state) {
    DownloadState before = announced.put(download.id(), state);
    if (before == state || before == null && state == DownloadState.PAUSED) {
      // the same state again, or a download added paused: aria2 announces neither (its aria2.js run shows it)
      return;
    }
    switch (state) {
      case ACTIVE -> send("aria2.onDownloadStart", download.id());
      case PAUSED -> send("aria2.onDownloadPause", download.id());
      case COMPLETED -> send("aria2.onDownloadComplete", download.id());
      case FAILED -> send("aria2.onDownloadError", download.id());
      case QUEUED -> {
        // aria2 says nothing when a download waits
      }
    }
  }

  @Override
  public void removed(Download download) {
    announced.remove(download.id());
    if (!quiet.remove(download.id())) {
      send("aria2.onDownloadStop", download.id());
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
