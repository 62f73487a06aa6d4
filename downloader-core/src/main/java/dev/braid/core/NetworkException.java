package dev.braid.core;

/**
 * The server could not be reached or the connection kept failing: unknown host, refused, reset,
 * timed out, after the retry budget; or a proxy refused its credentials
 * ({@link ProxyAuthenticationException}).
 */
public sealed class NetworkException extends DownloadException permits ProxyAuthenticationException {
  /**
   * A network failure described by {@code message}.
   *
   * @param message what happened, in one line a user can act on
   */
  public NetworkException(String message) {
    super(message, null);
  }

  /**
   * A network failure described by {@code message}, caused by {@code cause}.
   *
   * @param message what happened, in one line a user can act on
   * @param cause the underlying failure, or null
   */
  public NetworkException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * A failure whose detail the thrower knows, kept with its kind in the state database
   * ({@link Download#failure()}).
   *
   * @param message what happened, in one line a user can act on
   * @param cause the underlying error, or null
   * @param detail what failed, e.g. {@link FailureDetail#TIMEOUT}
   */
  public NetworkException(String message, Throwable cause, FailureDetail detail) {
    super(message, cause, detail);
  }
}
