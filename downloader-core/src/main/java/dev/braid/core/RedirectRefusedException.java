package dev.braid.core;

/**
 * The server's redirects could not be followed safely: a loop, more than the redirect limit, or a
 * redirect from https to plain http (refused unless explicitly allowed). Not retried.
 */
public final class RedirectRefusedException extends DownloadException {
  /**
   * A refused redirect described by {@code message}, caused by {@code cause}.
   *
   * @param message what happened, in one line a user can act on
   * @param cause the underlying failure, or null
   */
  public RedirectRefusedException(String message, Throwable cause) {
    super(message, cause);
  }
}
