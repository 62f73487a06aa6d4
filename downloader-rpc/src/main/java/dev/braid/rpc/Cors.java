package dev.braid.rpc;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import java.util.Set;

/**
 * CORS for the origins the daemon was told to allow ({@code --rpc-allow-origin}) and for no
 * other: a web page from anywhere else cannot read an answer (its calls still need the secret).
 * The same list says which web pages may open a WebSocket ({@link #upgrades}), which CORS does
 * not cover: a browser opens one from any page and lets the page read it. The server's own
 * console ({@link ConsoleFiles}) may open one too: its origin is the request's scheme
 * ({@code http://}, or {@code https://} over TLS) and the {@code Host} the request names, which {@link HostCheck} has vetted; its HTTP calls are
 * same-origin and need no CORS.
 */
final class Cors {
  private static final HttpString ALLOW_ORIGIN = HttpString.tryFromString("Access-Control-Allow-Origin");
  private static final HttpString ALLOW_METHODS = HttpString.tryFromString("Access-Control-Allow-Methods");
  private static final HttpString ALLOW_HEADERS = HttpString.tryFromString("Access-Control-Allow-Headers");
  private static final HttpString MAX_AGE = HttpString.tryFromString("Access-Control-Max-Age");
  private static final HttpString VARY = HttpString.tryFromString("Vary");

  private final Set<String> allowed;

  Cors(Set<String> allowed) {
    this.allowed = allowed;
  }

  /** Whether a WebSocket may open: the request carries no {@code Origin} (not a browser's), or an allowed one, or the console's own. */
  private boolean permits(HttpServerExchange ex) {
    String origin = ex.getRequestHeaders().getFirst(Headers.ORIGIN);
    return origin == null || allowed.contains(origin) || sameOrigin(ex, origin);
  }

  private static boolean sameOrigin(HttpServerExchange ex, String origin) {
    String host = ex.getRequestHeaders().getFirst(Headers.HOST);
    return host != null && origin.equalsIgnoreCase(ex.getRequestScheme() + "://" + host);
  }

  /** Grants the request's origin if it is allowed; whether it was. */
  boolean grant(HttpServerExchange ex) {
    String origin = ex.getRequestHeaders().getFirst("Origin");
    ex.getResponseHeaders().add(VARY, "Origin");
    if (origin == null || !allowed.contains(origin)) {
      return false;
    }
    ex.getResponseHeaders().put(ALLOW_ORIGIN, origin);
    return true;
  }

  /**
   * {@code upgrade} (the WebSocket handshake) behind the origin check ({@link #permits}): a request
   * with an {@code Origin} not allowed gets 403 and no socket. One without, as non-browser clients
   * send it, passes: browsers always send one.
   */
  HttpHandler upgrades(HttpHandler upgrade) {
    return ex -> {
      if (permits(ex)) {
        upgrade.handleRequest(ex);
      } else {
        ex.setStatusCode(403);
        ex.endExchange();
      }
    };
  }

  /** A preflight's answer headers, for an allowed origin. */
  void preflight(HttpServerExchange ex) {
    ex.getResponseHeaders().put(ALLOW_METHODS, "POST, GET, OPTIONS");
    ex.getResponseHeaders().put(ALLOW_HEADERS, "Content-Type");
    ex.getResponseHeaders().put(MAX_AGE, "1728000");
  }
}
