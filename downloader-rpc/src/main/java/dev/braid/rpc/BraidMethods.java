package dev.braid.rpc;

import static dev.braid.rpc.Dispatcher.NODES;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.braid.core.Download;
import dev.braid.core.Progress;

/**
 * What aria2 has no method for, under {@code braid.*}. {@code braid.tellSegments(gid)}: the
 * ranges a running download is split into, each {@code {start, end, completedLength, active}}
 * (strings, as aria2's values; end is exclusive, "-1" while the length is unknown); empty when
 * it is not running.
 */
final class BraidMethods {
  private final QueueView queue;

  BraidMethods(QueueView queue) {
    this.queue = queue;
  }

  void addTo(Dispatcher d) {
    d.add("braid.tellSegments", p -> segments(queue.find(p.gid(0))));
  }

  private static JsonNode segments(Download d) {
    ArrayNode a = NODES.arrayNode();
    for (Progress.Segment s : d.progress().segments()) {
      a.add(NODES.objectNode().put("start", Long.toString(s.start())).put("end", Long.toString(s.end()))
          .put("completedLength", Long.toString(s.done())).put("active", Boolean.toString(s.active())));
    }
    return a;
  }
}
