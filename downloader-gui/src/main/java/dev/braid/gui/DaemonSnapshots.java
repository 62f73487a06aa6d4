package dev.braid.gui;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.core.Gid;
import dev.braid.store.DownloadState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads an aria2 status struct of a daemon's download into the window's {@link DownloadSnapshot}.
 * aria2's status has no segments, validators or phase timings: those stay empty.
 */
final class DaemonSnapshots {
  /** The keys asked for in each poll. */
  static final List<String> KEYS = List.of("gid", "status", "totalLength", "completedLength", "downloadSpeed",
      "connections", "errorMessage", "files", "braidNextTry", "braidLastError");

  private DaemonSnapshots() {}

  /** The snapshot, or empty for a removed entry (the window shows it gone). */
  static Optional<DownloadSnapshot> of(JsonNode s, boolean addedHere) {
    DownloadState status = switch (s.path("status").asText()) {
      case "active" -> DownloadState.ACTIVE;
      case "waiting" -> DownloadState.QUEUED;
      case "paused" -> DownloadState.PAUSED;
      case "complete" -> DownloadState.COMPLETED;
      case "error" -> DownloadState.FAILED;
      default -> null;
    };
    if (status == null) {
      return Optional.empty();
    }
    JsonNode file = s.path("files").path(0);
    List<String> uris = new ArrayList<>();
    file.path("uris").forEach(u -> {
      String uri = u.path("uri").asText();
      if (!uri.isEmpty() && !uris.contains(uri)) {
        uris.add(uri);
      }
    });
    String url = uris.isEmpty() ? "" : uris.get(0);
    String path = file.path("path").asText("");
    long length = number(s.path("totalLength"));
    long done = number(s.path("completedLength"));
    // aria2 says 0 while the length is unknown
    if (length == 0 && status != DownloadState.COMPLETED) {
      length = -1;
    }
    double speed = number(s.path("downloadSpeed"));
    Duration eta = speed > 0 && length > 0 ? Duration.ofSeconds((long) ((length - done) / speed)) : null;
    String error = s.path("errorMessage").asText("");
    if (status == DownloadState.QUEUED && s.hasNonNull("braidNextTry")) {
      // waiting out an outage: shown where a failure's error is
      error = Snapshots.waiting(Instant.parse(s.path("braidNextTry").asText()), s.path("braidLastError").asText(""));
    }
    return Optional.of(new DownloadSnapshot(Gid.parse(s.path("gid").asText()), url, name(path, url), path.isEmpty() ? null : path,
        status, (status == DownloadState.FAILED || status == DownloadState.QUEUED) && !error.isEmpty() ? error : null, length, done, speed,
        (int) number(s.path("connections")), eta, List.of(), null, null, null, null, null,
        uris.size() > 1 ? uris.subList(1, uris.size()) : List.of(), PhaseTimings.NONE, addedHere));
  }

  private static String name(String path, String url) {
    String from = !path.isEmpty() ? path : url.replaceFirst("[?#].*$", "");
    String last = from.substring(from.lastIndexOf('/') + 1);
    return last.isEmpty() ? url : last;
  }

  private static long number(JsonNode n) {
    try {
      return Long.parseLong(n.asText("0"));
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
