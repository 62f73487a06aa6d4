package dev.braid.rpc;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HttpString;

/**
 * The headers every answer of the server carries, the console's files and the RPC's alike: a
 * Content-Security-Policy that lets the console run only its own files (no inline script or
 * style, nothing from other hosts, no framing: no clickjacking of its buttons), no MIME sniffing,
 * and no referrer sent anywhere.
 */
final class SecurityHeaders implements HttpHandler {
  static final String CONTENT_SECURITY_POLICY = "default-src 'self'; frame-ancestors 'none'";
  private static final HttpString CSP = HttpString.tryFromString("Content-Security-Policy");
  private static final HttpString NOSNIFF = HttpString.tryFromString("X-Content-Type-Options");
  private static final HttpString REFERRER = HttpString.tryFromString("Referrer-Policy");

  private final HttpHandler next;

  SecurityHeaders(HttpHandler next) {
    this.next = next;
  }

  @Override
  public void handleRequest(HttpServerExchange ex) throws Exception {
    ex.getResponseHeaders().put(CSP, CONTENT_SECURITY_POLICY);
    ex.getResponseHeaders().put(NOSNIFF, "nosniff");
    ex.getResponseHeaders().put(REFERRER, "no-referrer");
    next.handleRequest(ex);
  }
}
