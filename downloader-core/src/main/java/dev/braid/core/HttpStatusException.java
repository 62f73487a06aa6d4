package dev.braid.core;

import java.time.Duration;
import java.util.Optional;

/** The server answered with an HTTP error status (4xx or 5xx) that retrying did not fix. */
public final class HttpStatusException extends DownloadException {
  /** The HTTP status code, kept with the exception when it is serialized. */
  private final int status;
  /** The wait the server's last Retry-After asked for, or null. */
  private final Duration retryAfter;

  /**
   * A failure with the server's {@code status}, described by {@code message}.
   *
   * @param status the HTTP status code
   * @param message what happened, in one line a user can act on
   */
  public HttpStatusException(int status, String message) {
    this(status, message, null);
  }

  /**
   * A failure with the server's {@code status} and the wait its Retry-After asked for.
   *
   * @param status the HTTP status code
   * @param message what happened, in one line a user can act on
   * @param retryAfter the wait the server asked for, or null for none
   */
  public HttpStatusException(int status, String message, Duration retryAfter) {
    super(message, null);
    this.status = status;
    this.retryAfter = retryAfter;
  }

  /** {@return the HTTP status code, e.g} 404. */
  public int status() {
    return status;
  }

  /** {@return the wait the server's Retry-After asked for (a 503 or 429), if it sent one} */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }
}
