package dev.braid.client.remote;

import dev.braid.core.Checksum;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadRequestBuilder;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.PieceHashes;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link DownloadRequest} as {@code braid.add} takes it: {@code url, mirrors, headers,
 * connections} (absent: adaptive), {@code maxConnections, rateLimit, priority, overwrite,
 * restartIfChanged, minSplitSize}, {@code sequential} when set, and when given {@code file} (else {@code dir}), {@code checksum, pieces,
 * expectedLength, proxy, outageRetry}. A URL refresher lives in the face's process and does not
 * travel.
 */
public final class RequestForm {
  private RequestForm() {}

  /**
   * {@return {@code r} on the wire}
   *
   * @param r the request a face built
   */
  public static Map<String, Object> of(DownloadRequest r) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("url", r.uri().toString());
    o.put("mirrors", r.mirrors().stream().map(URI::toString).toList());
    o.put("headers", r.headers());
    r.connections().ifPresent(n -> o.put("connections", n));
    o.put("maxConnections", r.maxConnections());
    o.put("rateLimit", r.rateLimit());
    o.put("priority", r.priority());
    o.put("overwrite", r.overwrite());
    o.put("restartIfChanged", r.restartIfChanged());
    o.put("minSplitSize", r.minSplitSize());
    if (r.sequential()) {
      o.put("sequential", true);
    }
    if (r.file().isPresent()) {
      o.put("file", r.file().get().toAbsolutePath().toString());
    } else if (r.directoryGiven()) {
      o.put("dir", r.directory().toAbsolutePath().toString());
    }
    r.checksum().ifPresent(c -> o.put("checksum", c.toString()));
    r.pieceHashes().ifPresent(p -> o.put("pieces", p.text()));
    if (r.expectedLength() >= 0) {
      o.put("expectedLength", r.expectedLength());
    }
    r.proxy().ifPresent(p -> o.put("proxy", p));
    r.outageRetry().ifPresent(p -> o.put("outageRetry", RetryForm.of(p)));
    return o;
  }

  /**
   * {@return the request {@code m} describes}
   *
   * @param m a request on the wire, as maps, lists, strings and numbers
   * @throws InvalidRequestException when it is no valid request
   */
  public static DownloadRequest read(Map<String, ?> m) throws InvalidRequestException {
    RpcValue o = RpcValue.of(m);
    if (!o.path("url").isTextual()) {
      throw new InvalidRequestException("a request needs a url");
    }
    try {
      DownloadRequestBuilder b = DownloadRequest.builder(o.path("url").asText());
      List<String> mirrors = new ArrayList<>();
      o.path("mirrors").forEach(u -> mirrors.add(u.asText()));
      b.mirrors(mirrors);
      if (m.get("headers") instanceof Map<?, ?> headers) {
        headers.forEach((k, v) -> b.header(String.valueOf(k), String.valueOf(v)));
      }
      if (o.has("connections")) {
        b.connections(o.path("connections").asInt());
      }
      b.maxConnections(o.path("maxConnections").asInt()).rateLimit(o.path("rateLimit").asLong())
          .priority(o.path("priority").asInt()).overwrite(o.path("overwrite").asBoolean())
          .restartIfChanged(o.path("restartIfChanged").asBoolean()).minSplitSize(o.path("minSplitSize").asLong())
          .sequential(o.path("sequential").asBoolean());
      if (o.has("dir")) {
        b.directory(Path.of(o.path("dir").asText()));
      }
      if (o.has("file")) {
        b.file(Path.of(o.path("file").asText()));
      }
      if (o.has("checksum")) {
        b.checksum(Checksum.parse(o.path("checksum").asText()));
      }
      if (o.has("pieces")) {
        b.pieceHashes(PieceHashes.parse(o.path("pieces").asText()));
      }
      if (o.has("expectedLength")) {
        b.expectedLength(o.path("expectedLength").asLong());
      }
      if (o.has("proxy")) {
        b.proxy(o.path("proxy").asText());
      }
      if (o.has("outageRetry")) {
        b.outageRetry(RetryForm.read(o.path("outageRetry")));
      }
      return b.build();
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException(e.getMessage(), e);
    }
  }
}
