package dev.braid.rpc;

import static dev.braid.rpc.Dispatcher.NODES;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
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
 * for every WebSocket client. Runs on Braid's event thread; sending is non-blocking.
 *
 * <p>The engine may report a state twice (a resumed download is seen active by its start and by
 * the queue's refresh); aria2 announces a run once. So the last announced state is kept: in
 * {@link #live} for a download still running or paused (as many as the queue has unfinished), and
 * for an ended one only among the latest endings ({@link #ENDED_REMEMBERED} in the daemon), because a
 * repeated end comes right after the first while a daemon's history of ended downloads grows
 * without bound. A removed download is announced no more: the engine can report a state of a
 * running download after its removal (its run winding down), which aria2 never sends after
 * onDownloadStop; its id stays among the latest removals for that. The caches' upkeep runs on the
 * calling (event) thread: no pool thread.
 */
final class Notifier implements DownloadListener {
  static final List<String> NAMES = List.of("aria2.onDownloadStart", "aria2.onDownloadPause", "aria2.onDownloadStop",
      "aria2.onDownloadComplete", "aria2.onDownloadError", "aria2.onBtDownloadComplete");
  static final int ENDED_REMEMBERED = 4096;

  private final ObjectMapper mapper;
  private final Consumer<String> broadcast;
  /** Downloads whose removal is no stop of a download (a result cleared): not announced. */
  private final Set<Long> quiet = ConcurrentHashMap.newKeySet();
  private final Map<Long, DownloadState> live = new ConcurrentHashMap<>();
  private final Cache<Long, DownloadState> ended;
  private final Cache<Long, Boolean> removed;

  Notifier(ObjectMapper mapper, Consumer<String> broadcast) {
    this(mapper, broadcast, ENDED_REMEMBERED);
  }

  Notifier(ObjectMapper mapper, Consumer<String> broadcast, int endedRemembered) {
    this.mapper = mapper;
    this.broadcast = broadcast;
    this.ended = Caffeine.newBuilder().maximumSize(endedRemembered).executor(Runnable::run).build();
    this.removed = Caffeine.newBuilder().maximumSize(endedRemembered).executor(Runnable::run).build();
  }

  void quiet(long id) {
    quiet.add(id);
  }

  @Override
  public void stateChanged(Download download, DownloadState state) {
    long id = download.id();
    if (state == DownloadState.QUEUED || removed.getIfPresent(id) != null) {
      // aria2 says nothing when a download waits, and a run that waits again (a retry) is the same
      // run; nor anything of a download after its stop
      return;
    }
    DownloadState before = live.getOrDefault(id, ended.getIfPresent(id));
    if (before == state || before == null && state == DownloadState.PAUSED) {
      // the same state again, or a download added paused: aria2 announces neither (its aria2.js run shows it)
      return;
    }
    if (state == DownloadState.COMPLETED || state == DownloadState.FAILED) {
      live.remove(id);
      ended.put(id, state);
    } else {
      ended.invalidate(id);
      live.put(id, state);
    }
    switch (state) {
      case ACTIVE -> send("aria2.onDownloadStart", id);
      case PAUSED -> send("aria2.onDownloadPause", id);
      case COMPLETED -> send("aria2.onDownloadComplete", id);
      case FAILED -> send("aria2.onDownloadError", id);
      case QUEUED -> throw new AssertionError("returned above");
    }
  }

  /** How many downloads' last announced state or removal is kept. */
  long remembered() {
    return live.size() + ended.estimatedSize() + removed.estimatedSize();
  }

  @Override
  public void removed(Download download) {
    live.remove(download.id());
    ended.invalidate(download.id());
    removed.put(download.id(), Boolean.TRUE);
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
