package dev.braid.core.http;

import java.net.URI;
import org.apache.hc.client5.http.RedirectException;
import org.apache.hc.client5.http.impl.DefaultRedirectStrategy;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * HttpClient's redirect rules, plus one: a redirect from https to plain http is refused unless the
 * user allowed it, since it would hand the rest of the exchange (and any bytes that follow) to
 * whoever sits on the network path.
 */
final class SafeRedirectStrategy extends DefaultRedirectStrategy {
  private final boolean allowDowngrade;

  SafeRedirectStrategy(boolean allowDowngrade) {
    this.allowDowngrade = allowDowngrade;
  }

  @Override
  public URI getLocationURI(HttpRequest request, HttpResponse response, HttpContext context) throws HttpException {
    URI location = super.getLocationURI(request, response, context);
    if (!allowDowngrade && "https".equalsIgnoreCase(request.getScheme()) && "http".equalsIgnoreCase(location.getScheme())) {
      throw new RedirectException("refused the redirect (" + response.getCode() + ") from https to http: " + location);
    }
    return location;
  }
}
