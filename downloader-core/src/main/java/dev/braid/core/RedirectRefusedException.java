package dev.braid.core;

/**
 * The server's redirects could not be followed safely: a loop, more than the redirect limit, or a
 * redirect from https to plain http (refused unless explicitly allowed). Not retried.
 */
public final class RedirectRefusedException extends DownloadException {
  public RedirectRefusedException(String message, Throwable cause) {
    super(message, cause);
  }
}
