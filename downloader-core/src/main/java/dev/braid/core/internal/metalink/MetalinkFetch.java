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
import dev.braid.core.internal.http.Requester;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
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

  /** Fetches the Metalink {@code request} names, over its proxy, with its headers for their origin. */
  public static Metalink fetch(HttpTransport http, DownloadRequest request)
      throws MetalinkException, HttpStatusException, NetworkException {
    RequestProxy proxy = RequestProxy.forDownload(request.proxy().orElse(null));
    return fetch((uri, headers, user, recorder) -> http.get(Protocol.HTTP_1_1, uri, headers, user, recorder, proxy),
        request.uri(), OriginHeaders.of(request.uri(), request.headers()), new PhaseRecorder());
  }

  /**
   * Fetches the Metalink at {@code uri} through {@code http} (a download's own route, for one its
   * server advertises).
   *
   * @param userHeaders the user's headers, sent only to their own origin
   */
  public static Metalink fetch(Requester http, URI uri, OriginHeaders userHeaders, PhaseRecorder recorder)
      throws MetalinkException, HttpStatusException, NetworkException {
    Map<String, String> headers = Map.of("Accept", Metalink.MEDIA_TYPE + ", application/xml;q=0.5, */*;q=0.1");
    try (Exchange ex = http.get(uri, headers, userHeaders, recorder)) {
      if (ex.status() != 200) {
        ex.abort();
        throw new HttpStatusException(ex.status(), "the Metalink " + uri + " answered HTTP " + ex.status());
      }
      String type = ex.header("Content-Type");
      String media = type == null ? "" : type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
      if (!media.equals(Metalink.MEDIA_TYPE) && !media.endsWith("xml") && !Metalink.looksLikeMetalink(uri.getPath())) {
        ex.abort();
        throw new MetalinkException(uri + " serves " + media + ", not a Metalink (" + Metalink.MEDIA_TYPE + ")");
      }
      if (ex.contentLength() > Metalink.MAX_BYTES) {
        ex.abort();
        throw new MetalinkException("the Metalink " + uri + " is " + ex.contentLength() + " bytes, more than "
            + Metalink.MAX_BYTES);
      }
      byte[] doc;
      try (InputStream in = ex.body()) {
        doc = in.readNBytes(Metalink.MAX_BYTES + 1);
      }
      if (doc.length > Metalink.MAX_BYTES) {
        ex.abort();
        throw new MetalinkException("the Metalink " + uri + " is more than " + Metalink.MAX_BYTES + " bytes");
      }
      try {
        return Metalink.parse(doc);
      } catch (MetalinkException e) {
        throw new MetalinkException(uri + ": " + e.getMessage(), e);
      }
    } catch (IOException e) {
      throw new NetworkException("cannot fetch the Metalink " + uri + ": " + e.getMessage(), e);
    }
  }
}
