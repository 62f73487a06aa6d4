package dev.braid.cli;

import dev.braid.core.TransferMetrics;
import java.time.Duration;
import java.util.Locale;

/** The connection metrics of a download, as {@code braid get --debug} prints them at the end. */
final class MetricsReport {
  private MetricsReport() {}

  static String of(TransferMetrics m) {
    return String.format(Locale.ROOT,
        "braid: dns %d look-ups + %d cached (%s)%n"
            + "braid: connections %d opened (connect %s), requests %d, %d on reused connections (reuse %.0f%%)%n"
            + "braid: tls %d handshakes, %d resumed (resumption %.0f%%, handshakes %s)%n"
            + "braid: first byte %s mean over %d requests, retries %d, %s received",
        m.dnsLookups(), m.dnsCacheHits(), ms(m.dnsTime()),
        m.connectionsOpened(), ms(m.connectTime()), m.requests(), m.requestsOnReusedConnections(),
        100 * m.connectionReuseRatio(),
        m.tlsHandshakes(), m.tlsResumed(), 100 * m.tlsResumptionRatio(), ms(m.tlsTime()),
        ms(m.meanTimeToFirstByte()), m.requests(), m.retries(), Units.bytes(m.bytes()));
  }

  private static String ms(Duration d) {
    return String.format(Locale.ROOT, "%.1f ms", d.toNanos() / 1e6);
  }
}
