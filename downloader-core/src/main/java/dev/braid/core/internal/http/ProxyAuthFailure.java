package dev.braid.core.internal.http;

import java.io.IOException;

/**
 * A proxy refused the credentials of its URL, or asked for credentials the URL did not have: an
 * HTTP proxy's 407 that HttpClient could not answer, or a failed SOCKS5 authentication. Asking
 * again would meet the same refusal. The message names the proxy's host and port, never the
 * credentials.
 */
public final class ProxyAuthFailure extends IOException {
  ProxyAuthFailure(String message) {
    super(message);
  }

  /** An HTTP proxy's final 407: a refusal of its URL's credentials, or a demand for some. */
  static ProxyAuthFailure httpProxy(ProxyPlan.Proxy proxy) {
    return new ProxyAuthFailure(proxy.credentials() != null
        ? "the HTTP proxy at " + proxy.where() + " refused the user name and password (407 Proxy Authentication Required)"
        : "the HTTP proxy at " + proxy.where() + " requires authentication (407): give a user name and password in the"
            + " proxy URL (http://USER:PASSWORD@HOST:PORT)");
  }
}
