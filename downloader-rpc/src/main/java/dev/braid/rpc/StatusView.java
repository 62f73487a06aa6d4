package dev.braid.rpc;

import static dev.braid.rpc.Dispatcher.NODES;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.braid.core.Download;
import dev.braid.core.Gid;
import dev.braid.core.Progress;
import dev.braid.store.DownloadState;
import java.util.List;
import java.util.Set;

/**
 * A download as aria2's {@code tellStatus} shapes it: every value a string, one file with its
 * URIs. The status names are aria2's: waiting (queued), active, paused, complete, error, removed. A
 * download waiting out an outage is "waiting" with Braid's {@link #NEXT_TRY} and the last error.
 */
final class StatusView {
  /** aria2's status of a download removed from the queue. */
  static final String REMOVED = "removed";
  /** Braid's keys of a download waiting out an outage: the next try (ISO-8601, UTC), the failed tries in a row, the last error and its aria2 code. */
  static final String NEXT_TRY = "braidNextTry";
  static final String FAILED_TRIES = "braidFailedTries";
  static final String LAST_ERROR = "braidLastError";
  static final String LAST_ERROR_CODE = "braidLastErrorCode";

  private StatusView() {}

  static String status(DownloadState s) {
    return switch (s) {
      case QUEUED -> "waiting";
      case ACTIVE -> "active";
      case PAUSED -> "paused";
      case COMPLETED -> "complete";
      case FAILED -> "error";
    };
  }

  /** The whole status of {@code d}. */
  static ObjectNode of(Download d) {
    return of(d, status(d.state()));
  }

  /** The status of {@code d} under the given aria2 status name (removed downloads keep their last look). */
  static ObjectNode of(Download d, String status) {
    Progress p = d.progress();
    long length = Math.max(0, p.length());
    long done = d.state() == DownloadState.COMPLETED && p.length() >= 0 ? p.length() : p.done();
    ObjectNode o = NODES.objectNode();
    o.put("gid", Gid.of(d.id()));
    o.put("status", status);
    o.put("totalLength", Long.toString(length));
    o.put("completedLength", Long.toString(done));
    o.put("uploadLength", "0");
    o.put("downloadSpeed", Long.toString(d.state() == DownloadState.ACTIVE ? (long) p.bytesPerSecond() : 0));
    o.put("uploadSpeed", "0");
    o.put("connections", Integer.toString(d.state() == DownloadState.ACTIVE ? p.connections() : 0));
    o.put("dir", d.directory().toString());
    o.set("files", files(d, length, done));
    PieceMap.addTo(o, d.state(), p, length);
    // aria2 reports an outcome once a download stopped: 0 and no message when it completed, its
    // removed code when removed, else the failure's code
    if (status.equals(REMOVED)) {
      o.put("errorCode", Aria2ErrorCode.removed());
      o.put("errorMessage", "");
    } else if (d.state() == DownloadState.COMPLETED) {
      o.put("errorCode", "0");
      o.put("errorMessage", "");
    } else {
      d.failure().ifPresent(f -> {
        o.put("errorCode", Aria2ErrorCode.of(f));
        o.put("errorMessage", d.error().orElse(""));
      });
    }
    // waiting out an outage: aria2's "waiting", and when the next try starts and why the last failed
    d.outageWait().ifPresent(w -> {
      o.put(NEXT_TRY, w.nextTry().toString());
      o.put(FAILED_TRIES, Integer.toString(w.failedRuns()));
      o.put(LAST_ERROR, w.lastError());
      o.put(LAST_ERROR_CODE, Aria2ErrorCode.of(w.lastFailure()));
    });
    return o;
  }

  /** {@code getFiles}: the one file of a download. */
  static ArrayNode files(Download d) {
    Progress p = d.progress();
    long length = Math.max(0, p.length());
    return files(d, length, d.state() == DownloadState.COMPLETED && p.length() >= 0 ? p.length() : p.done());
  }

  private static ArrayNode files(Download d, long length, long done) {
    ObjectNode f = NODES.objectNode();
    f.put("index", "1");
    f.put("path", d.file().map(Object::toString).orElse(""));
    f.put("length", Long.toString(length));
    f.put("completedLength", Long.toString(done));
    f.put("selected", "true");
    f.set("uris", uris(d));
    return NODES.arrayNode().add(f);
  }

  /** {@code getUris}: the URL in use, then the mirrors. */
  static ArrayNode uris(Download d) {
    ArrayNode a = NODES.arrayNode();
    a.add(NODES.objectNode().put("uri", d.url()).put("status", "used"));
    for (String m : d.mirrors()) {
      a.add(NODES.objectNode().put("uri", m).put("status", "waiting"));
    }
    return a;
  }

  /** Only the keys asked for (all of them when {@code keys} is empty), as aria2 filters. */
  static ObjectNode filter(ObjectNode status, List<String> keys) {
    if (keys.isEmpty()) {
      return status;
    }
    Set<String> wanted = Set.copyOf(keys);
    status.retain(wanted);
    return status;
  }
}
