package dev.braid.core;

/** The download was paused (or the process asked to stop) before it completed; it resumes where it stopped. */
public final class DownloadPausedException extends DownloadException {
  public DownloadPausedException(String message) {
    super(message, null);
  }

  public DownloadPausedException(String message, Throwable cause) {
    super(message, cause);
  }
}
