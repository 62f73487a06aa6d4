package dev.braid.core;

/** The server could not be reached or the connection kept failing: unknown host, refused, reset, timed out, after the retry budget. */
public final class NetworkException extends DownloadException {
  public NetworkException(String message) {
    super(message, null);
  }

  public NetworkException(String message, Throwable cause) {
    super(message, cause);
  }
}
