package dev.braid.core.internal.http;

import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpRequestInterceptor;
import org.apache.hc.core5.http.ProtocolException;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.net.URIAuthority;

/**
 * Adds a request's {@link OriginHeaders} on the way out, hop by hop. HttpClient runs request
 * interceptors inside its redirect loop, so this sees every request actually sent, the
 * redirected ones included, and decides for each from its real target. The headers never sit on
 * the request the caller built (which HttpClient copies into redirects); any header of the same
 * name that carries credentials is removed first, so nothing reaches a foreign host by way of a copy.
 */
final class OriginHeadersInterceptor implements HttpRequestInterceptor {
  static final String ATTRIBUTE = "braid.origin-headers";
  /** Removed before deciding; others (User-Agent) keep HttpClient's default where the user's does not apply. */
  private static final Set<String> SENSITIVE = Set.of("authorization", "cookie", "proxy-authorization");

  @Override
  public void process(HttpRequest request, EntityDetails entity, HttpContext context) throws ProtocolException {
    Object attached = context.getAttribute(ATTRIBUTE);
    if (!(attached instanceof OriginHeaders headers)) {
      return;
    }
    for (String name : headers.names()) {
      if (SENSITIVE.contains(name.toLowerCase(Locale.ROOT))) {
        request.removeHeaders(name);
      }
    }
    URIAuthority authority = request.getAuthority();
    if (authority == null) {
      try {
        authority = URIAuthority.create(request.getUri().getRawAuthority());
      } catch (URISyntaxException e) {
        return;
      }
    }
    Map<String, String> send = headers.forTarget(request.getScheme(), authority.getHostName(), authority.getPort());
    send.forEach(request::setHeader);
  }
}
