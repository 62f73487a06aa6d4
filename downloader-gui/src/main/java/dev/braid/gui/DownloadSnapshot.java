package dev.braid.gui;

import dev.braid.store.DownloadState;
import java.time.Duration;
import java.util.List;

/**
 * Everything the window shows of one download at one moment: immutable, made on a Braid thread,
 * applied on the FX thread. Optional facts are null when unknown.
 *
 * @param id the store's id of the download
 * @param url the URL asked for
 * @param name the file name shown
 * @param file the target file, or null before it is known
 * @param status where it stands
 * @param error why it failed, or for a queued one waiting out an outage when it tries again; null for none
 * @param length total bytes, or -1 while unknown
 * @param done bytes on disk
 * @param bytesPerSecond current throughput
 * @param connections connections streaming now
 * @param eta time left at this speed, or null
 * @param segments the ranges, for the segment map (may be empty)
 * @param connectionReason why the connection count is what it is (the last change), or null
 * @param etag the server's ETag, or null
 * @param lastModified the server's Last-Modified, or null
 * @param finalUrl the URL after redirects, or null
 * @param checksum the expected checksum as "algo=hex", or null
 * @param mirrors other URLs of the same file
 * @param timings where the connections spent their time in this process's run
 * @param addedHere whether this window added it in this session (its end is news even when the
 *     window first sees it already finished)
 */
record DownloadSnapshot(
    long id,
    String url,
    String name,
    String file,
    DownloadState status,
    String error,
    long length,
    long done,
    double bytesPerSecond,
    int connections,
    Duration eta,
    List<SegmentView> segments,
    String connectionReason,
    String etag,
    String lastModified,
    String finalUrl,
    String checksum,
    List<String> mirrors,
    PhaseTimings timings,
    boolean addedHere) {

  DownloadSnapshot {
    segments = List.copyOf(segments);
    mirrors = List.copyOf(mirrors);
  }

  /** This snapshot with {@code t} as its timings. */
  DownloadSnapshot withTimings(PhaseTimings t) {
    return new DownloadSnapshot(id, url, name, file, status, error, length, done, bytesPerSecond, connections, eta, segments,
        connectionReason, etag, lastModified, finalUrl, checksum, mirrors, t, addedHere);
  }

  /** Share done in [0, 1], 1 once complete, or -1 (an indeterminate bar) while running with the length unknown. */
  double fraction() {
    if (status == DownloadState.COMPLETED || length == 0) {
      return 1;
    }
    if (length < 0) {
      return status == DownloadState.ACTIVE ? -1 : 0;
    }
    return Math.min(1, (double) done / length);
  }

  /** The checksum's state in words: what is expected and whether it held. */
  String checksumState() {
    if (checksum == null) {
      return "none given";
    }
    return switch (status) {
      case COMPLETED -> checksum + " (verified)";
      case FAILED -> checksum + (error != null && error.toLowerCase(java.util.Locale.ROOT).contains("checksum") ? " (mismatch)" : " (not checked)");
      default -> checksum + " (checked when complete)";
    };
  }
}
