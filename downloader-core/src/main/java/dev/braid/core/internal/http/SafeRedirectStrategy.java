package dev.braid.core.internal.http;

import java.net.URI;
import java.util.Locale;
import org.apache.hc.client5.http.RedirectException;
import org.apache.hc.client5.http.impl.DefaultRedirectStrategy;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * HttpClient's redirect rules, plus two: a redirect goes to http or https only (HttpClient would
 * fetch {@code gopher://host:port/} or {@code foo://} as plain HTTP, whatever the scheme says),
 * and one from https to plain http is refused unless the user allowed it, since it would hand the
 * rest of the exchange (and any bytes that follow) to whoever sits on the network path.
 */
final class SafeRedirectStrategy extends DefaultRedirectStrategy {
  private final boolean allowDowngrade;

  SafeRedirectStrategy(boolean allowDowngrade) {
    this.allowDowngrade = allowDowngrade;
  }

  @Override
  public URI getLocationURI(HttpRequest request, HttpResponse response, HttpContext context) throws HttpException {
    URI location = super.getLocationURI(request, response, context);
    String to = location.getScheme() == null ? "" : location.getScheme().toLowerCase(Locale.ROOT);
    if (!to.equals("http") && !to.equals("https")) {
      throw new RedirectException("refused the redirect (" + response.getCode() + ") from " + request.getScheme() + " to "
          + (to.isEmpty() ? "a URL without a scheme" : to) + ": " + location + " (only http and https are followed)");
    }
    if (!allowDowngrade && "https".equalsIgnoreCase(request.getScheme()) && to.equals("http")) {
      throw new RedirectException("refused the redirect (" + response.getCode() + ") from https to http: " + location);
    }
    return location;
  }
}
