package dev.braid.core;

/**
 * A proxy refused the credentials of its URL ({@code http://USER:PASSWORD@HOST:PORT} or
 * {@code socks5://...}), or asked for credentials the URL did not have: an HTTP proxy's 407 or a
 * failed SOCKS5 authentication. A {@link NetworkException}, since the server was never reached;
 * the request is not retried, as the same credentials would be refused again. The message names
 * the proxy, never the credentials.
 */
public final class ProxyAuthenticationException extends NetworkException {
  /**
   * A refusal described by {@code message}, caused by {@code cause}.
   *
   * @param message what happened, in one line a user can act on, naming the proxy and never its
   *     credentials
   * @param cause the proxy's answer or the SOCKS5 failure, or null
   */
  public ProxyAuthenticationException(String message, Throwable cause) {
    super(message, cause);
  }
}
