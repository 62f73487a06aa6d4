package dev.braid.core;

/** The download was paused (or the process asked to stop) before it completed; it resumes where it stopped. */
public final class DownloadPausedException extends DownloadException {
  /**
   * A pause described by {@code message}.
   *
   * @param message what happened, in one line a user can act on
   */
  public DownloadPausedException(String message) {
    super(message, null);
  }

  /**
   * A pause described by {@code message}, caused by {@code cause}.
   *
   * @param message what happened, in one line a user can act on
   * @param cause the underlying failure, or null
   */
  public DownloadPausedException(String message, Throwable cause) {
    super(message, cause);
  }
}
