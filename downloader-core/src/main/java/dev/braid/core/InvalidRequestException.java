package dev.braid.core;

/** The request itself is wrong: a malformed URL, an unsupported scheme, contradictory options. */
public final class InvalidRequestException extends DownloadException {
  public InvalidRequestException(String message) {
    super(message, null);
  }

  public InvalidRequestException(String message, Throwable cause) {
    super(message, cause);
  }
}
