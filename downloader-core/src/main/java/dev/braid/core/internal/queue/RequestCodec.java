package dev.braid.core.internal.queue;

import dev.braid.core.Checksum;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadRequestBuilder;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.OutageRetry;
import dev.braid.core.PieceHashes;
import dev.braid.store.QueueEntry;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a request into the queue's stored fields and back, so a queue outlives the process that
 * filled it. Only what a later run needs is stored. The request's headers (its secrets: cookies,
 * credentials) are not among the entry's fields: the store keeps them apart
 * ({@link dev.braid.store.QueueStore#headers}), and {@link #decode} takes them from there.
 */
final class RequestCodec {
  /** The option of a download's own {@link OutageRetry}, as {@link OutageRetry#text()} writes it. */
  static final String RETRY = "outage_retry";

  private RequestCodec() {}

  static List<String> urls(DownloadRequest r) {
    List<String> urls = new ArrayList<>();
    urls.add(r.uri().toString());
    r.mirrors().forEach(m -> urls.add(m.toString()));
    return urls;
  }

  static Map<String, String> options(DownloadRequest r) {
    Map<String, String> o = new LinkedHashMap<>();
    r.connections().ifPresent(n -> o.put("connections", Integer.toString(n)));
    o.put("max_connections", Integer.toString(r.maxConnections()));
    o.put("overwrite", Boolean.toString(r.overwrite()));
    o.put("restart_if_changed", Boolean.toString(r.restartIfChanged()));
    o.put("min_split", Long.toString(r.minSplitSize()));
    if (r.sequential()) {
      o.put("sequential", "true");
    }
    r.checksum().ifPresent(c -> o.put("checksum", c.toString()));
    if (r.rateLimit() > 0) {
      o.put("rate_limit", Long.toString(r.rateLimit()));
    }
    r.pieceHashes().ifPresent(p -> o.put("pieces", p.text()));
    if (r.expectedLength() >= 0) {
      o.put("length", Long.toString(r.expectedLength()));
    }
    r.outageRetry().ifPresent(p -> o.put(RETRY, p.text()));
    return DownloadProxy.into(o, r.proxy().orElse(null));
  }

  /**
   * The request of entry {@code e} with the headers the store keeps for it, checked as a new
   * request's are (a message names a bad header, never its value).
   */
  static DownloadRequest decode(QueueEntry e, Map<String, String> headers) throws InvalidRequestException {
    Map<String, String> o = e.options();
    DownloadRequestBuilder b = DownloadRequest.builder(e.url())
        .mirrors(e.urls().subList(1, e.urls().size()))
        .directory(e.directory())
        .priority(e.priority());
    if (e.file() != null) {
      b.file(e.file());
    }
    try {
      if (o.containsKey("connections")) {
        b.connections(Integer.parseInt(o.get("connections")));
      }
      b.maxConnections(Integer.parseInt(o.getOrDefault("max_connections", Integer.toString(DownloadRequest.DEFAULT_MAX_CONNECTIONS))));
      b.overwrite(Boolean.parseBoolean(o.get("overwrite")));
      b.restartIfChanged(!"false".equals(o.get("restart_if_changed")));
      b.minSplitSize(Long.parseLong(o.getOrDefault("min_split", Long.toString(DownloadRequest.DEFAULT_MIN_SPLIT))));
      b.sequential("true".equals(o.get("sequential")));
      b.rateLimit(Long.parseLong(o.getOrDefault("rate_limit", "0")));
      b.expectedLength(Long.parseLong(o.getOrDefault("length", "-1")));
      if (o.containsKey("pieces")) {
        b.pieceHashes(PieceHashes.parse(o.get("pieces")));
      }
      b.proxy(o.get(DownloadProxy.OPTION));
      if (o.containsKey(RETRY)) {
        b.outageRetry(OutageRetry.parse(o.get(RETRY)));
      }
    } catch (IllegalArgumentException ex) {
      throw new InvalidRequestException("queue entry " + e.id() + " has unreadable options: " + ex.getMessage(), ex);
    }
    if (o.containsKey("checksum")) {
      b.checksum(Checksum.parse(o.get("checksum")));
    }
    headers.forEach(b::header);
    return b.build();
  }

  /** The entry's own {@link OutageRetry}; null for none, or for one this Braid cannot read (the default then applies). */
  static OutageRetry outageRetry(QueueEntry e) {
    String text = e.options().get(RETRY);
    try {
      return text == null ? null : OutageRetry.parse(text);
    } catch (IllegalArgumentException unreadable) {
      return null;
    }
  }

  /** The file name a user recognises: the final file's, else the URL's last path part. */
  static String displayName(QueueEntry e) {
    if (e.target() != null) {
      return e.target().getFileName().toString();
    }
    if (e.file() != null) {
      return e.file().getFileName().toString();
    }
    String path = URI.create(e.url()).getPath();
    String last = path == null ? "" : path.substring(path.lastIndexOf('/') + 1);
    return last.isEmpty() ? URI.create(e.url()).getHost() : last;
  }
}
