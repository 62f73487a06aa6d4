package dev.braid.core.internal.http;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Headers the user gave for one origin (scheme, host and port): custom headers, credentials,
 * cookies. They are added to a request only when it goes to that origin, so a redirect to
 * another host, or the ranged requests that follow it to the final URL, never carry them. The
 * values are secrets: {@link #toString()} names the origin and the header names only.
 */
public final class OriginHeaders {
  /** No headers. */
  public static final OriginHeaders NONE = new OriginHeaders(null, Map.of());

  private final String origin;
  private final Map<String, String> headers;

  private OriginHeaders(String origin, Map<String, String> headers) {
    this.origin = origin;
    this.headers = headers;
  }

  /** {@code headers} (name to value) to be sent only to the origin of {@code uri}. */
  public static OriginHeaders of(URI uri, Map<String, String> headers) {
    if (headers.isEmpty()) {
      return NONE;
    }
    return new OriginHeaders(originOf(uri.getScheme(), uri.getHost(), uri.getPort()), new LinkedHashMap<>(headers));
  }

  /** The headers for a request to this scheme, host and port: all of them for the origin, none elsewhere. */
  Map<String, String> forTarget(String scheme, String host, int port) {
    if (origin == null || !origin.equals(originOf(scheme, host, port))) {
      return Map.of();
    }
    return headers;
  }

  /** The header names these may set, for removing them where they do not belong. */
  Iterable<String> names() {
    return headers.keySet();
  }

  static String originOf(String scheme, String host, int port) {
    String s = Objects.requireNonNullElse(scheme, "http").toLowerCase(Locale.ROOT);
    int p = port >= 0 ? port : s.equals("https") ? 443 : 80;
    String h = Objects.requireNonNullElse(host, "").toLowerCase(Locale.ROOT);
    return s + "://" + h + ":" + p;
  }

  @Override
  public String toString() {
    return "headers " + headers.keySet() + " for " + origin;
  }
}
