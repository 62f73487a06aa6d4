package dev.braid.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.Gid;
import dev.braid.store.DownloadState;

/**
 * The methods that change downloads: pause, unpause, remove and the removal of results. Braid
 * records a pause at once, so aria2's pause and forcePause are the same here, as are remove and
 * forceRemove. A removed download keeps its partial file and resume record (as aria2 keeps its
 * control file): adding the same URL again continues it.
 */
final class ControlMethods {
  private static final TextNode OK = TextNode.valueOf("OK");
  private final Braid braid;
  private final QueueView queue;
  private final RemovedResults removed;
  private final Notifier notifier;

  ControlMethods(Braid braid, QueueView queue, RemovedResults removed, Notifier notifier) {
    this.braid = braid;
    this.queue = queue;
    this.removed = removed;
    this.notifier = notifier;
  }

  void addTo(Dispatcher d) {
    for (String name : new String[] {"aria2.pause", "aria2.forcePause"}) {
      d.add(name, p -> pause(queue.find(p.gid(0))));
    }
    for (String name : new String[] {"aria2.pauseAll", "aria2.forcePauseAll"}) {
      d.add(name, p -> pauseAll());
    }
    d.add("aria2.unpause", p -> unpause(queue.find(p.gid(0))));
    d.add("aria2.unpauseAll", p -> unpauseAll());
    for (String name : new String[] {"aria2.remove", "aria2.forceRemove"}) {
      d.add(name, p -> remove(queue.find(p.gid(0))));
    }
    d.add("aria2.removeDownloadResult", p -> removeResult(p.gid(0)));
    d.add("aria2.purgeDownloadResult", p -> purge());
  }

  private static JsonNode pause(Download d) throws RpcException {
    if (d.state() != DownloadState.ACTIVE && d.state() != DownloadState.QUEUED) {
      throw RpcException.failed("GID#" + Gid.of(d.id()) + " cannot be paused now");
    }
    d.pause();
    return TextNode.valueOf(Gid.of(d.id()));
  }

  private JsonNode pauseAll() {
    for (Download d : braid.downloads()) {
      if (d.state() == DownloadState.ACTIVE || d.state() == DownloadState.QUEUED) {
        d.pause();
      }
    }
    return OK;
  }

  private static JsonNode unpause(Download d) throws RpcException {
    if (d.state() != DownloadState.PAUSED) {
      throw RpcException.failed("GID#" + Gid.of(d.id()) + " cannot be unpaused now");
    }
    d.resume();
    return TextNode.valueOf(Gid.of(d.id()));
  }

  private JsonNode unpauseAll() {
    for (Download d : braid.downloads()) {
      if (d.state() == DownloadState.PAUSED) {
        d.resume();
      }
    }
    return OK;
  }

  /** Out of the queue; its last status stays in tellStopped as "removed" (aria2's onDownloadStop is heard). */
  private JsonNode remove(Download d) throws RpcException {
    if (d.state() == DownloadState.COMPLETED || d.state() == DownloadState.FAILED) {
      throw RpcException.failed("GID#" + Gid.of(d.id()) + " cannot be removed now");
    }
    removed.add(d.id(), StatusView.of(d, StatusView.REMOVED));
    d.remove(false);
    return TextNode.valueOf(Gid.of(d.id()));
  }

  private JsonNode removeResult(long id) throws RpcException {
    if (removed.remove(id)) {
      return OK;
    }
    Download d = queue.find(id);
    if (d.state() != DownloadState.COMPLETED && d.state() != DownloadState.FAILED) {
      throw RpcException.failed("Could not remove download result of GID#" + Gid.of(id));
    }
    forget(d);
    return OK;
  }

  private JsonNode purge() {
    removed.clear();
    for (Download d : braid.downloads()) {
      if (d.state() == DownloadState.COMPLETED || d.state() == DownloadState.FAILED) {
        forget(d);
      }
    }
    return OK;
  }

  /** A result leaves the queue (its file stays); that is no download stopping, so no one is told. */
  private void forget(Download d) {
    notifier.quiet(d.id());
    d.remove(false);
  }
}
