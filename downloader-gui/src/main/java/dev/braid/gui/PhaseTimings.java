package dev.braid.gui;

import java.time.Duration;
import java.util.Locale;

/**
 * Where a download's connections spent their time, for the detail pane: DNS, TCP connect, TLS
 * handshake and time to first byte, with how well connections were reused. Times are sums over
 * connections except the first byte, which is the mean per request.
 */
record PhaseTimings(Duration dns, long connections, Duration connect, long handshakes, long resumed, Duration tls,
    long requests, double reuse, Duration meanFirstByte, long retries) {

  static final PhaseTimings NONE = new PhaseTimings(Duration.ZERO, 0, Duration.ZERO, 0, 0, Duration.ZERO, 0, 0, Duration.ZERO, 0);

  /** The phases, e.g. "DNS 1.2 ms · connect 4.0 ms (8 conn.) · TLS — · first byte 35 ms". */
  String phases() {
    if (requests == 0 && connections == 0) {
      return Formats.NONE;
    }
    String tlsPart = handshakes == 0 ? "TLS —" : "TLS " + ms(tls) + " (" + resumed + "/" + handshakes + " resumed)";
    return "DNS " + ms(dns) + " · connect " + ms(connect) + " (" + connections + " conn.) · " + tlsPart + " · first byte " + ms(meanFirstByte);
  }

  /** The requests, e.g. "40, 80% on reused connections, 1 retried". */
  String requestsLine() {
    if (requests == 0) {
      return Formats.NONE;
    }
    return String.format(Locale.ROOT, "%d, %.0f%% on reused connections, %d retried", requests, reuse * 100, retries);
  }

  private static String ms(Duration d) {
    long micros = d.toNanos() / 1000;
    return micros < 10_000 ? String.format(Locale.ROOT, "%.1f ms", micros / 1000.0) : d.toMillis() + " ms";
  }
}
