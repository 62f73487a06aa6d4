package dev.braid.gui;

import dev.braid.client.DownloadView;
import dev.braid.core.Progress;
import dev.braid.core.RemoteFile;
import dev.braid.core.TransferMetrics;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Reads a {@link DownloadView} of the client port into the window's {@link DownloadSnapshot}: the one place that maps between them. */
final class Snapshots {
  private Snapshots() {}

  static PhaseTimings timings(TransferMetrics m) {
    return new PhaseTimings(m.dnsTime(), m.connectionsOpened(), m.connectTime(), m.tlsHandshakes(), m.tlsResumed(),
        m.tlsTime(), m.requests(), m.connectionReuseRatio(), m.meanTimeToFirstByte(), m.retries());
  }

  /** What a queued row waiting out an outage shows where a failed one shows its error: when it tries again, and why. */
  static String waiting(Instant nextTry, String lastError) {
    return "Waiting to retry at " + DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT).format(nextTry.atZone(ZoneId.systemDefault()))
        + (lastError == null || lastError.isEmpty() ? "" : ": " + lastError);
  }

  /** @param addedHere whether this window added the download in this session */
  static DownloadSnapshot of(DownloadView d, boolean addedHere) {
    Progress p = d.progress();
    List<SegmentView> segments = new ArrayList<>(p.segments().size());
    for (Progress.Segment s : p.segments()) {
      // a segment of unknown end (no length yet) has nothing to draw
      if (s.end() >= s.start() && s.done() <= s.end() - s.start()) {
        segments.add(new SegmentView(s.start(), s.end(), Math.max(0, s.done()), s.active()));
      }
    }
    RemoteFile remote = d.remote();
    long length = p.length() >= 0 ? p.length() : remote != null ? remote.length() : -1;
    String error = d.error() != null ? d.error()
        : d.outageWait() != null ? waiting(d.outageWait().nextTry(), d.outageWait().lastError()) : null;
    return new DownloadSnapshot(d.id(), d.url(), d.name(), d.file() == null ? null : d.file().toString(), d.state(), error,
        length, p.done(), p.bytesPerSecond(), p.connections(), p.eta().orElse(null), segments,
        d.lastConnectionChange() == null ? null : d.lastConnectionChange().reason(),
        remote == null ? null : remote.etag(), remote == null ? null : remote.lastModified(),
        remote == null || remote.finalUrl() == null || remote.finalUrl().equals(d.url()) ? null : remote.finalUrl(),
        d.checksum() == null ? null : d.checksum().toString(), d.mirrors(), timings(d.metrics()), addedHere);
  }
}
