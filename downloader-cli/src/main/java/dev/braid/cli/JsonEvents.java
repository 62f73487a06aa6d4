package dev.braid.cli;

import dev.braid.core.Download;
import dev.braid.core.DownloadException;
import dev.braid.core.DownloadListener;
import dev.braid.core.DownloadResult;
import dev.braid.core.HookFailure;
import dev.braid.core.Progress;
import dev.braid.core.TransferMetrics;
import dev.braid.store.DownloadState;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.CompletionException;

/**
 * {@code --json}: newline-delimited JSON events on standard output, one object per line, for
 * scripts: {@code queued}, {@code started}, {@code progress}, {@code paused}, {@code completed},
 * {@code failed}, {@code hook_failed} (a hook that failed, timed out or could not run); a {@code completed} event carries the run's connection metrics. Only about
 * the downloads this command submitted: the store may be shared with other processes (the
 * desktop app, another get), whose entries a script did not ask about. Called on Braid's event
 * thread, so lines never interleave.
 */
final class JsonEvents implements DownloadListener {
  private final PrintStream out;

  JsonEvents(PrintStream out) {
    this.out = out;
  }

  @Override
  public void stateChanged(Download d, DownloadState state) {
    if (!d.submittedHere()) {
      return;
    }
    switch (state) {
      case QUEUED -> emit(base("queued", d));
      case ACTIVE -> emit(base("started", d));
      case PAUSED -> emit(base("paused", d).put("done", d.progress().done()));
      case COMPLETED -> d.result().thenAccept(r -> emit(completed(d, r)));
      case FAILED -> d.result().exceptionally(e -> {
        emit(failed(d, e));
        return null;
      });
    }
  }

  @Override
  public void progress(Download d, Progress p) {
    if (!d.submittedHere()) {
      return;
    }
    emit(base("progress", d).put("done", p.done()).put("length", p.length()).put("bytes_per_second", p.bytesPerSecond())
        .put("connections", p.connections()));
  }

  /** A hook that did not succeed; called on a hook thread, hence the lock in {@link #emit}. */
  void hookFailed(HookFailure f) {
    emit(new Json().put("event", "hook_failed").put("id", f.event().id()).put("url", f.event().url())
        .put("hook", f.hook()).put("for", f.event().kind().name().toLowerCase(java.util.Locale.ROOT))
        .put("reason", f.reason()));
  }

  private static Json completed(Download d, DownloadResult r) {
    return base("completed", d).put("file", r.file().toString()).put("length", r.length())
        .put("fetched", r.bytesFetched()).put("reused", r.bytesReused()).put("seconds", r.elapsed().toMillis() / 1000.0)
        .put("metrics", metrics(r.metrics()));
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

  private static Json failed(Download d, Throwable e) {
    Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    int code = cause instanceof DownloadException de ? ExitCode.of(de) : ExitCode.INTERNAL;
    return base("failed", d).put("error", String.valueOf(cause.getMessage())).put("exit_code", code);
  }

  private static Json base(String event, Download d) {
    return new Json().put("event", event).put("id", d.id()).put("url", d.url()).put("name", d.name());
  }

  private synchronized void emit(Json j) {
    out.println(j);
    out.flush();
  }
}
