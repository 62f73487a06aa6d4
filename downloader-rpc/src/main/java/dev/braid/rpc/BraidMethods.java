package dev.braid.rpc;

import static dev.braid.rpc.Dispatcher.NODES;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.braid.core.Download;
import dev.braid.core.DownloadFailure;
import dev.braid.core.DownloadResult;
import dev.braid.core.FailureKind;
import dev.braid.core.Gid;
import dev.braid.core.Progress;
import dev.braid.store.DownloadState;
import java.util.Locale;

/**
 * What aria2 has no method for, under {@code braid.*}, for Braid's own clients (the command line):
 * <ul>
 *   <li>{@code braid.tellSegments(gid)}: the ranges a running download is split into, each
 *       {@code {start, end, completedLength, active}} (strings, as aria2's values; end is
 *       exclusive, "-1" while the length is unknown); empty when it is not running.
 *   <li>{@code braid.tellEntry(gid)} and {@code braid.tellEntries(offset, num)} (oldest first, one
 *       page of the store; without arguments, all of them): downloads as Braid's queue
 *       has them: {@code id, gid, state} (queued, active, paused, completed, failed), {@code url,
 *       name, file, done, length, bytesPerSecond, connections, priority, etag, lastModified}, and once failed
 *       {@code error} and {@code errorKind}: a {@link FailureKind#id()} (usage, network, http-status,
 *       remote-changed, local-io, integrity, link-refused, metalink, removed or internal: the kind
 *       the state database keeps, also after a restart; {@code braid}'s exit codes follow it) and
 *       {@code errorPasses}, whether it was a failure an outage causes (waiting may be all it takes); once completed by this engine, the run's {@code fetched, reused,
 *       elapsedMillis, restarts, restartReason}. Numbers are JSON numbers, absent values null.
 *   <li>{@code braid.resume(gid)}: continues a paused or failed download; {@code
 *       braid.remove(gid, deleteFile)}: out of the queue, with its file when deleteFile is "true".
 * </ul>
 */
final class BraidMethods {
  private final QueueView queue;

  BraidMethods(QueueView queue) {
    this.queue = queue;
  }

  void addTo(Dispatcher d) {
    d.add("braid.tellSegments", p -> segments(queue.find(p.gid(0))));
    d.add("braid.tellEntry", p -> entry(queue.find(p.gid(0))));
    d.add("braid.tellEntries", p -> {
      ArrayNode a = NODES.arrayNode();
      int offset = p.has(0) ? p.integer(0) : 0;
      int num = p.has(1) ? p.integer(1) : Integer.MAX_VALUE;
      for (Download one : queue.all(offset, Math.max(0, num))) {
        a.add(entry(one));
      }
      return a;
    });
    d.add("braid.resume", p -> {
      Download one = queue.find(p.gid(0));
      one.resume();
      return TextNode.valueOf(Gid.of(one.id()));
    });
    d.add("braid.remove", p -> {
      Download one = queue.find(p.gid(0));
      one.remove(p.has(1) && "true".equals(p.string(1)));
      return TextNode.valueOf(Gid.of(one.id()));
    });
  }

  private static JsonNode segments(Download d) {
    ArrayNode a = NODES.arrayNode();
    for (Progress.Segment s : d.progress().segments()) {
      a.add(NODES.objectNode().put("start", Long.toString(s.start())).put("end", Long.toString(s.end()))
          .put("completedLength", Long.toString(s.done())).put("active", Boolean.toString(s.active())));
    }
    return a;
  }

  private static ObjectNode entry(Download d) {
    Progress p = d.progress();
    ObjectNode o = NODES.objectNode();
    o.put("id", d.id());
    o.put("gid", Gid.of(d.id()));
    o.put("state", d.state().name().toLowerCase(Locale.ROOT));
    o.put("url", d.url());
    o.put("name", d.name());
    o.put("file", d.file().map(Object::toString).orElse(null));
    o.put("done", p.done());
    o.put("length", p.length());
    o.put("bytesPerSecond", p.bytesPerSecond());
    o.put("connections", p.connections());
    o.put("priority", d.priority());
    d.remote().ifPresent(r -> {
      o.put("etag", r.etag());
      o.put("lastModified", r.lastModified());
    });
    if (d.state() == DownloadState.COMPLETED && d.result().isDone() && !d.result().isCompletedExceptionally()) {
      DownloadResult r = d.result().join();
      o.put("fetched", r.bytesFetched());
      o.put("reused", r.bytesReused());
      o.put("elapsedMillis", r.elapsed().toMillis());
      o.put("restarts", r.restarts());
      o.put("restartReason", d.restartReason().orElse(null));
    }
    d.outageWait().ifPresent(w -> {
      o.put("nextTry", w.nextTry().toEpochMilli());
      o.put("failedTries", w.failedRuns());
      o.put("lastError", w.lastError());
      o.put("lastErrorKind", w.lastFailure().kind().id());
    });
    if (d.state() == DownloadState.FAILED) {
      o.put("error", d.error().orElse(null));
      o.put("errorKind", d.failure().map(f -> f.kind().id()).orElse(FailureKind.INTERNAL.id()));
      o.put("errorPasses", d.failure().map(DownloadFailure::passes).orElse(false));
    }
    return o;
  }
}
