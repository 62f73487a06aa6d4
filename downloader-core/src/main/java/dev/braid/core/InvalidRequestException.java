package dev.braid.core;

/** The request itself is wrong: a malformed URL, an unsupported scheme, contradictory options. */
public final class InvalidRequestException extends DownloadException {
  /**
   * A wrong request described by {@code message}.
   *
   * @param message what happened, in one line a user can act on
   */
  public InvalidRequestException(String message) {
    super(message, null);
  }

  /**
   * A wrong request described by {@code message}, caused by {@code cause}.
   *
   * @param message what happened, in one line a user can act on
   * @param cause the underlying failure, or null
   */
  public InvalidRequestException(String message, Throwable cause) {
    super(message, cause);
  }
}
