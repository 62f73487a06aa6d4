package dev.braid.core.internal.metalink;

import dev.braid.core.DownloadRequest;
import dev.braid.core.HttpStatusException;
import dev.braid.core.Metalink;
import dev.braid.core.MetalinkException;
import dev.braid.core.NetworkException;
import dev.braid.core.internal.http.Exchange;
import dev.braid.core.internal.http.HttpTransport;
import dev.braid.core.internal.http.OriginHeaders;
import dev.braid.core.internal.http.PhaseRecorder;
import dev.braid.core.internal.http.Protocol;
import dev.braid.core.internal.http.RequestProxy;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Map;

/**
 * Fetches a Metalink document named by a URL into memory, on the caller's thread: one GET through
 * the engine's transport (its proxies or the request's own, TLS settings and the request's origin-scoped headers), at
 * most {@link Metalink#MAX_BYTES} read, a 200 required. A response that is neither
 * {@value Metalink#MEDIA_TYPE} nor XML by its type is refused unless its URL names a Metalink.
 */
public final class MetalinkFetch {
  private MetalinkFetch() {}

  public static Metalink fetch(HttpTransport http, DownloadRequest request)
      throws MetalinkException, HttpStatusException, NetworkException {
    Map<String, String> headers = Map.of("Accept", Metalink.MEDIA_TYPE + ", application/xml;q=0.5, */*;q=0.1");
    try (Exchange ex = http.get(Protocol.HTTP_1_1, request.uri(), headers, OriginHeaders.of(request.uri(), request.headers()),
        new PhaseRecorder(), RequestProxy.forDownload(request.proxy().orElse(null)))) {
      if (ex.status() != 200) {
        ex.abort();
        throw new HttpStatusException(ex.status(), "the Metalink " + request.uri() + " answered HTTP " + ex.status());
      }
      String type = ex.header("Content-Type");
      String media = type == null ? "" : type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
      if (!media.equals(Metalink.MEDIA_TYPE) && !media.endsWith("xml") && !Metalink.looksLikeMetalink(request.uri().getPath())) {
        ex.abort();
        throw new MetalinkException(request.uri() + " serves " + media + ", not a Metalink (" + Metalink.MEDIA_TYPE + ")");
      }
      if (ex.contentLength() > Metalink.MAX_BYTES) {
        ex.abort();
        throw new MetalinkException("the Metalink " + request.uri() + " is " + ex.contentLength() + " bytes, more than "
            + Metalink.MAX_BYTES);
      }
      byte[] doc;
      try (InputStream in = ex.body()) {
        doc = in.readNBytes(Metalink.MAX_BYTES + 1);
      }
      if (doc.length > Metalink.MAX_BYTES) {
        ex.abort();
        throw new MetalinkException("the Metalink " + request.uri() + " is more than " + Metalink.MAX_BYTES + " bytes");
      }
      try {
        return Metalink.parse(doc);
      } catch (MetalinkException e) {
        throw new MetalinkException(request.uri() + ": " + e.getMessage(), e);
      }
    } catch (IOException e) {
      throw new NetworkException("cannot fetch the Metalink " + request.uri() + ": " + e.getMessage(), e);
    }
  }
}
