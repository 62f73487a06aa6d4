package dev.braid.core;

/** The server answered with an HTTP error status (4xx or 5xx) that retrying did not fix. */
public final class HttpStatusException extends DownloadException {
  /** The HTTP status code, kept with the exception when it is serialized. */
  private final int status;

  /**
   * A failure with the server's {@code status}, described by {@code message}.
   *
   * @param status the HTTP status code
   * @param message what happened, in one line a user can act on
   */
  public HttpStatusException(int status, String message) {
    super(message, null);
    this.status = status;
  }

  /** {@return the HTTP status code, e.g} 404. */
  public int status() {
    return status;
  }
}
