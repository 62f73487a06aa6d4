package dev.braid.core;

/**
 * The server could not be reached or the connection kept failing: unknown host, refused, reset,
 * timed out, after the retry budget; or a proxy refused its credentials
 * ({@link ProxyAuthenticationException}).
 */
public sealed class NetworkException extends DownloadException permits ProxyAuthenticationException {
  public NetworkException(String message) {
    super(message, null);
  }

  public NetworkException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * A failure whose detail the thrower knows, kept with its kind in the state database
   * ({@link Download#failure()}).
   *
   * @param cause the underlying error, or null
   * @param detail what failed, e.g. {@link FailureDetail#TIMEOUT}
   */
  public NetworkException(String message, Throwable cause, FailureDetail detail) {
    super(message, cause, detail);
  }
}
