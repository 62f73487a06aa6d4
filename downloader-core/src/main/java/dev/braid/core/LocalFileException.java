package dev.braid.core;

/** The local side failed: no space, no permission, a missing folder, a target that exists, a file another process is downloading, or the state database. */
public final class LocalFileException extends DownloadException {
  public LocalFileException(String message) {
    super(message, null);
  }

  public LocalFileException(String message, Throwable cause) {
    super(message, cause);
  }
}
