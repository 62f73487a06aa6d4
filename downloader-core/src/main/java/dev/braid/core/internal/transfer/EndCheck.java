package dev.braid.core.internal.transfer;

import dev.braid.core.DownloadException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.internal.fetch.RangeSource;
import dev.braid.core.internal.fetch.RemoteChanged;
import dev.braid.core.internal.fetch.TransientFailure;
import dev.braid.core.internal.fetch.Validators;
import dev.braid.core.internal.http.Exchange;
import dev.braid.core.internal.http.OriginHeaders;
import dev.braid.core.internal.http.PhaseRecorder;
import dev.braid.core.internal.http.Requester;
import dev.braid.core.internal.io.PartFile;
import dev.braid.store.RemoteIdentity;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Objects;

/**
 * A last look at the server after a long pass, before the file gets its name: does it still serve
 * the file the pass began with? Validators miss a file rewritten under a running download by a
 * server that keeps them (rclone serves the new bytes under the old Last-Modified until its
 * directory cache expires, so If-Range accepts every range) and by a server without ranges that
 * streams its one 200 from a file rewritten under it (Python's http.server): both ended with old
 * and new bytes spliced and exit 0 (docs/interop.md). On the driver thread, after the workers.
 *
 * <p>With ranges, the file's first {@value HeldBytes#SAMPLE} bytes, the first the pass's probe
 * wrote, are fetched again and compared with the part file (their request checks the validators
 * and the length as any range does). Without ranges, a GET's head is compared with the probe's
 * (ETag, length, Last-Modified) and its body is not read. A pass shorter than {@link #AFTER} is not
 * checked: a small file would pay a second request for a window of milliseconds. Nor is a download
 * with a checksum or piece hashes: those prove its bytes, where the main URL's sample could be the
 * wrong one (a corrupt main URL whose pieces came again from a good mirror). A check that cannot
 * be made (the network, an expired link) proves nothing: the download completes, with a note.
 */
final class EndCheck {
  /** Passes at least this long are checked. */
  static final Duration AFTER = Duration.ofSeconds(1);

  private final ConnectionBudget budget;
  private final Requester http;
  private final OriginHeaders headers;
  private final PhaseRecorder recorder;
  /** Hears a restart and a check that could not be made. */
  private final DownloadLog log;

  /** @param headers the user's headers for the request's origin */
  EndCheck(ConnectionBudget budget, Requester http, OriginHeaders headers, PhaseRecorder recorder, DownloadLog log) {
    this.budget = budget;
    this.http = http;
    this.headers = headers;
    this.recorder = recorder;
    this.log = log;
  }

  /** Whether a pass of {@code request} that started at {@code startNanos} and ends at {@code nowNanos} is checked. */
  static boolean due(DownloadRequest request, long startNanos, long nowNanos) {
    return nowNanos - startNanos >= AFTER.toNanos() && request.checksum().isEmpty() && request.pieceHashes().isEmpty();
  }

  /**
   * Checks a completed pass, under a connection permit as any request: a file that changed under
   * it starts over (the restart noted here, with its reason), or with {@code --no-restart} fails,
   * its bytes kept and its record at nothing done either way.
   *
   * @param request the pass's request: whether it may restart, and its split size
   * @throws RemoteChanged when the server's file is no longer the one in {@code part}
   */
  void require(DownloadRequest request, PassControl control, PartCommit commit, PartFile part, RangeSource source)
      throws RemoteChanged {
    String host = HostConnections.hostOf(source.identity());
    if (!budget.acquireWaiting(host, control)) {
      // paused with every byte in: nothing is left to download, nor to check against
      return;
    }
    String why;
    try {
      why = whyChanged(source, part);
    } finally {
      budget.release(host);
    }
    if (why == null) {
      return;
    }
    commit.startOver(source.identity(), request.minSplitSize());
    if (request.restartIfChanged()) {
      log.restarted(why);
    }
    throw new RemoteChanged(why);
  }

  /**
   * Why the server's file is no longer the one in {@code part}; null when the check finds it the
   * same or cannot be made (the log is told why).
   */
  private String whyChanged(RangeSource source, PartFile part) {
    RemoteIdentity id = source.identity();
    try {
      return id.ranges() && id.length() > 0 ? sampleDiffers(source, part) : headDiffers(id);
    } catch (RemoteChanged e) {
      return e.getMessage();
    } catch (TransientFailure | DownloadException | IOException e) {
      log.note("could not look at the server once more after the download (" + e.getMessage()
          + "): completed on what the download saw");
      return null;
    }
  }

  private String sampleDiffers(RangeSource source, PartFile part)
      throws TransientFailure, RemoteChanged, DownloadException, IOException {
    int size = (int) Math.min(HeldBytes.SAMPLE, source.identity().length());
    byte[] served = SameBytes.sample(http, source, headers, recorder, 0, size);
    if (!HeldBytes.onDisk(part, 0, served)) {
      return "the server's bytes 0-" + (size - 1) + " changed while the file was downloaded, though its validators"
          + " did not (a server that reports a rewritten file's old ETag or Last-Modified)";
    }
    return null;
  }

  private String headDiffers(RemoteIdentity id) throws IOException {
    Exchange ex = http.get(URI.create(id.finalUrl()), Map.of(), headers, recorder);
    try {
      if (ex.status() != 200) {
        throw new IOException("it answered " + ex.status());
      }
      return headDifference(id, ex.header("ETag"), ex.contentLength(), ex.header("Last-Modified"), ex.header("Date"));
    } finally {
      ex.abort();
    }
  }

  /**
   * Why a head with these values is not of the file {@code id} describes; null when none differs.
   * A Last-Modified within a second of the answer's own Date is the server's clock, not the file's
   * (a generated response dates itself), so it shows no change.
   */
  private static String headDifference(RemoteIdentity id, String etag, long length, String lastModified, String date) {
    if (id.etag() != null && etag != null && !Validators.sameTag(id.etag(), etag)) {
      return "the ETag changed from " + id.etag() + " to " + etag + " while the file was downloaded";
    }
    if (id.length() >= 0 && length >= 0 && id.length() != length) {
      return "the length changed from " + id.length() + " to " + length + " bytes while the file was downloaded";
    }
    if (id.lastModified() != null && lastModified != null && !Objects.equals(id.lastModified(), lastModified)
        && !isClock(lastModified, date)) {
      return "Last-Modified changed from " + id.lastModified() + " to " + lastModified + " while the file was downloaded";
    }
    return null;
  }

  private static boolean isClock(String lastModified, String date) {
    if (date == null) {
      return false;
    }
    try {
      ZonedDateTime modified = ZonedDateTime.parse(lastModified, DateTimeFormatter.RFC_1123_DATE_TIME);
      ZonedDateTime now = ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME);
      return !modified.isBefore(now.minusSeconds(1));
    } catch (DateTimeParseException e) {
      // a date that cannot be read is compared as text, as the validators are
      return false;
    }
  }
}
