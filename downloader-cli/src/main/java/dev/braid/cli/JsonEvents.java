package dev.braid.cli;

import dev.braid.core.HookFailure;
import dev.braid.core.TransferMetrics;
import java.io.PrintStream;
import java.time.Duration;

/**
 * {@code --json}: newline-delimited JSON events on standard output, one object per line, for
 * scripts: {@code queued}, {@code started}, {@code progress}, {@code paused}, {@code completed},
 * {@code failed} (written as {@link ClientFollow} follows them, by its {@link FollowReport}, from
 * the client's views, whichever engine runs the downloads), and {@code hook_failed} (a hook that
 * failed, timed out or could not run); a {@code completed} event carries the run's connection
 * metrics. Only about the downloads this command added: the store may be shared with other
 * processes (the desktop app, another get), whose entries a script did not ask about.
 */
final class JsonEvents {
  private JsonEvents() {}

  /** A hook that did not succeed; called on a hook thread, whole lines ({@link FollowReport#emit}). */
  static void hookFailed(PrintStream out, HookFailure f) {
    FollowReport.emit(out, new Json().put("event", "hook_failed").put("id", f.event().id()).put("url", f.event().url())
        .put("hook", f.hook()).put("for", f.event().kind().name().toLowerCase(java.util.Locale.ROOT))
        .put("reason", f.reason()));
  }

  /** The connection metrics of a run; times in milliseconds, summed over connections. */
  static Json metrics(TransferMetrics m) {
    return new Json().put("dns_lookups", m.dnsLookups()).put("dns_cache_hits", m.dnsCacheHits())
        .put("dns_ms", millis(m.dnsTime())).put("connections_opened", m.connectionsOpened())
        .put("connect_ms", millis(m.connectTime())).put("tls_handshakes", m.tlsHandshakes())
        .put("tls_resumed", m.tlsResumed()).put("tls_ms", millis(m.tlsTime())).put("requests", m.requests())
        .put("requests_on_reused_connections", m.requestsOnReusedConnections())
        .put("first_byte_ms", millis(m.timeToFirstByte())).put("retries", m.retries()).put("bytes", m.bytes())
        .put("connection_reuse_ratio", m.connectionReuseRatio()).put("tls_resumption_ratio", m.tlsResumptionRatio());
  }

  private static double millis(Duration d) {
    return d.toNanos() / 1e6;
  }
}
