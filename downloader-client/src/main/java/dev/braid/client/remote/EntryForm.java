package dev.braid.client.remote;

import dev.braid.client.DownloadView;
import dev.braid.client.DownloadViews;
import dev.braid.core.Checksum;
import dev.braid.core.ConnectionChange;
import dev.braid.core.Download;
import dev.braid.core.DownloadFailure;
import dev.braid.core.DownloadNote;
import dev.braid.core.DownloadResult;
import dev.braid.core.FailureDetail;
import dev.braid.core.FailureKind;
import dev.braid.core.Gid;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.OutageWait;
import dev.braid.core.Progress;
import dev.braid.core.RemoteFile;
import dev.braid.core.TransferMetrics;
import dev.braid.store.DownloadState;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A download as {@code braid.tellEntry}, {@code braid.tellEntries} and {@code braid.page} answer
 * it: the daemon writes it ({@link #of}), {@link RemoteClient} reads it back into the same
 * {@link DownloadView} the in-process client gives. Numbers are JSON numbers, times epoch
 * milliseconds, absent values null or missing. Fields: {@code id, gid, state, url, name, file,
 * dir, mirrors, checksum, done, length, bytesPerSecond, connections, runMillis, segments
 * [{start, end, done, active}], priority}; with what the server said, {@code etag, lastModified,
 * finalUrl, remoteLength, ranges}; with a failure (a failed download's, or the last of a retried
 * one), {@code error, errorKind} (a {@link FailureKind#id()}), {@code errorDetail, errorStatus,
 * errorPasses}; while it waits out an outage, {@code nextTry, failedTries, since, lastError,
 * lastErrorKind, lastErrorDetail, lastErrorStatus}; once completed by this engine, the run's
 * {@code fetched, reused, elapsedMillis, restarts, restartReason}. For the web console, what the
 * engine's current run told ({@link DownloadView#notes}, {@link DownloadView#connectionChanges},
 * each as its text): {@code notes, connectionChanges}; once it ran here, {@code metrics} (the
 * counts of {@link TransferMetrics}, its times in milliseconds: {@code dnsLookups, dnsCacheHits,
 * dnsMillis, connectionsOpened, connectMillis, tlsHandshakes, tlsResumed, tlsMillis, requests,
 * reusedRequests, firstByteMillis} (the mean), {@code retries, bytes}). {@link RemoteClient} does
 * not read these back: its views keep none of them, as before.
 */
public final class EntryForm {
  private EntryForm() {}

  /**
   * {@return {@code d} as the daemon answers it}
   *
   * @param d the engine's download
   */
  public static Map<String, Object> of(Download d) {
    DownloadView v = DownloadViews.of(d);
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("id", v.id());
    o.put("gid", Gid.of(v.id()));
    o.put("state", v.state().name().toLowerCase(Locale.ROOT));
    o.put("url", v.url());
    o.put("name", v.name());
    o.put("file", v.file() == null ? null : v.file().toString());
    o.put("dir", v.directory().toString());
    o.put("mirrors", v.mirrors());
    o.put("checksum", v.checksum() == null ? null : v.checksum().toString());
    Progress p = v.progress();
    o.put("done", p.done());
    o.put("length", p.length());
    o.put("bytesPerSecond", p.bytesPerSecond());
    o.put("connections", p.connections());
    o.put("runMillis", p.elapsed().toMillis());
    List<Map<String, Object>> segments = new ArrayList<>();
    for (Progress.Segment s : p.segments()) {
      segments.add(Map.of("start", s.start(), "end", s.end(), "done", s.done(), "active", s.active()));
    }
    o.put("segments", segments);
    o.put("priority", v.priority());
    if (v.remote() != null) {
      RemoteFile r = v.remote();
      o.put("etag", r.etag());
      o.put("lastModified", r.lastModified());
      o.put("finalUrl", r.finalUrl());
      o.put("remoteLength", r.length());
      o.put("ranges", r.ranges());
    }
    if (v.result() != null) {
      DownloadResult r = v.result();
      o.put("fetched", r.bytesFetched());
      o.put("reused", r.bytesReused());
      o.put("elapsedMillis", r.elapsed().toMillis());
      o.put("restarts", r.restarts());
      o.put("restartReason", v.restartReason());
    }
    o.put("notes", v.notes().stream().map(DownloadNote::toString).toList());
    o.put("connectionChanges", v.connectionChanges().stream().map(ConnectionChange::toString).toList());
    if (!v.metrics().equals(TransferMetrics.NONE)) {
      o.put("metrics", metrics(v.metrics()));
    }
    if (v.outageWait() != null) {
      OutageWait w = v.outageWait();
      o.put("nextTry", w.nextTry().toEpochMilli());
      o.put("failedTries", w.failedRuns());
      o.put("since", w.since().toEpochMilli());
      o.put("lastError", w.lastError());
      failure(o, "lastError", w.lastFailure());
    }
    if (v.error() != null) {
      o.put("error", v.error());
    }
    if (v.failure() != null) {
      failure(o, "error", v.failure());
      o.put("errorPasses", v.failure().passes());
    }
    return o;
  }

  private static Map<String, Object> metrics(TransferMetrics m) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("dnsLookups", m.dnsLookups());
    o.put("dnsCacheHits", m.dnsCacheHits());
    o.put("dnsMillis", m.dnsTime().toMillis());
    o.put("connectionsOpened", m.connectionsOpened());
    o.put("connectMillis", m.connectTime().toMillis());
    o.put("tlsHandshakes", m.tlsHandshakes());
    o.put("tlsResumed", m.tlsResumed());
    o.put("tlsMillis", m.tlsTime().toMillis());
    o.put("requests", m.requests());
    o.put("reusedRequests", m.requestsOnReusedConnections());
    o.put("firstByteMillis", m.meanTimeToFirstByte().toMillis());
    o.put("retries", m.retries());
    o.put("bytes", m.bytes());
    return o;
  }

  private static void failure(Map<String, Object> o, String prefix, DownloadFailure f) {
    o.put(prefix + "Kind", f.kind().id());
    o.put(prefix + "Detail", f.detail().name().toLowerCase(Locale.ROOT));
    o.put(prefix + "Status", f.httpStatus());
  }

  /** The view {@code e} describes, as the in-process client would give it. */
  static DownloadView view(RpcValue e) throws InvalidRequestException {
    List<String> mirrors = new ArrayList<>();
    e.path("mirrors").forEach(m -> mirrors.add(m.asText()));
    List<Progress.Segment> segments = new ArrayList<>();
    for (RpcValue s : e.path("segments")) {
      segments.add(new Progress.Segment(s.path("start").asLong(), s.path("end").asLong(), s.path("done").asLong(),
          s.path("active").asBoolean()));
    }
    Progress progress = new Progress(e.path("length").asLong(), e.path("done").asLong(), e.path("bytesPerSecond").asDouble(),
        e.path("connections").asInt(), Duration.ofMillis(e.path("runMillis").asLong()), segments);
    RemoteFile remote = e.has("ranges") ? new RemoteFile(e.path("finalUrl").textValue(), e.path("remoteLength").asLong(),
        e.path("etag").textValue(), e.path("lastModified").textValue(), e.path("ranges").asBoolean()) : null;
    OutageWait wait = e.has("nextTry") ? new OutageWait(Instant.ofEpochMilli(e.path("nextTry").asLong()),
        e.path("failedTries").asInt(), Instant.ofEpochMilli(e.path("since").asLong()), e.path("lastError").textValue(),
        failure(e, "lastError")) : null;
    DownloadState state = DownloadState.valueOf(e.path("state").asText().toUpperCase(Locale.ROOT));
    return new DownloadView(e.path("id").asLong(), e.path("url").asText(), e.path("name").asText(),
        e.path("file").isTextual() ? Path.of(e.path("file").asText()) : null, Path.of(e.path("dir").asText()), state,
        progress, mirrors, e.path("checksum").isTextual() ? Checksum.parse(e.path("checksum").asText()) : null,
        e.path("priority").asInt(), e.path("error").textValue(), e.has("errorKind") ? failure(e, "error") : null, wait, remote,
        result(e), e.path("restartReason").textValue(), TransferMetrics.NONE, List.of(), List.of(), null);
  }

  /** The completing run's result the daemon sends once it has one ({@code fetched} and the rest); null before. */
  private static DownloadResult result(RpcValue e) {
    if (!e.has("fetched") || !e.path("file").isTextual()) {
      return null;
    }
    return new DownloadResult(Path.of(e.path("file").asText()), e.path("length").asLong(), e.path("fetched").asLong(),
        e.path("reused").asLong(), Duration.ofMillis(e.path("elapsedMillis").asLong()), e.path("restarts").asInt());
  }

  private static DownloadFailure failure(RpcValue e, String prefix) {
    return new DownloadFailure(FailureKind.ofId(e.path(prefix + "Kind").asText()),
        FailureDetail.valueOf(e.path(prefix + "Detail").asText("none").toUpperCase(Locale.ROOT)), e.path(prefix + "Status").asInt());
  }
}
