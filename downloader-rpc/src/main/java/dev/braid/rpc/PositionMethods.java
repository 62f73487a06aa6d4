package dev.braid.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import dev.braid.core.Download;
import dev.braid.core.Gid;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code aria2.changePosition(gid, pos, how)}: moves a waiting download in the waiting list
 * (how: POS_SET from the start, POS_CUR from where it is, POS_END from the end) and answers its
 * new position. Braid orders the wait by priority, so the list's new order is written as
 * priorities, last 0, each one above 1 higher (only the ones that change are written).
 */
final class PositionMethods {
  private final QueueView queue;

  PositionMethods(QueueView queue) {
    this.queue = queue;
  }

  void addTo(Dispatcher d) {
    d.add("aria2.changePosition", p -> changePosition(p.gid(0), p.integer(1), p.string(2)));
  }

  /**
   * Moves a waiting download to {@code pos} of the waiting list (aria2's POS_SET); the position
   * it got. addUri's position comes here too.
   */
  JsonNode changePosition(long id, int pos, String how) throws RpcException {
    List<Download> waiting = new ArrayList<>(queue.waiting());
    int from = -1;
    for (int i = 0; i < waiting.size(); i++) {
      if (waiting.get(i).id() == id) {
        from = i;
      }
    }
    if (from < 0) {
      throw RpcException.failed("GID#" + Gid.of(id) + " not found in the waiting queue");
    }
    int to = switch (how) {
      case "POS_SET" -> pos;
      case "POS_CUR" -> from + pos;
      case "POS_END" -> waiting.size() - 1 + pos;
      default -> throw RpcException.failed("how must be POS_SET, POS_CUR or POS_END, not " + how);
    };
    to = Math.max(0, Math.min(waiting.size() - 1, to));
    waiting.add(to, waiting.remove(from));
    for (int i = 0; i < waiting.size(); i++) {
      int priority = waiting.size() - 1 - i;
      if (waiting.get(i).priority() != priority) {
        waiting.get(i).priority(priority);
      }
    }
    return IntNode.valueOf(to);
  }
}
