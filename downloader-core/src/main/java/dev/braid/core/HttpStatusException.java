package dev.braid.core;

/** The server answered with an HTTP error status (4xx or 5xx) that retrying did not fix. */
public final class HttpStatusException extends DownloadException {
  private final int status;

  public HttpStatusException(int status, String message) {
    super(message, null);
    this.status = status;
  }

  /** The HTTP status code, e.g. 404. */
  public int status() {
    return status;
  }
}
