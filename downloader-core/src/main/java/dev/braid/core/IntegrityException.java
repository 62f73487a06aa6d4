package dev.braid.core;

/** What arrived cannot be trusted: the server kept answering with ranges other than those asked for, or a checksum did not match. */
public final class IntegrityException extends DownloadException {
  public IntegrityException(String message) {
    super(message, null);
  }

  public IntegrityException(String message, Throwable cause) {
    super(message, cause);
  }
}
