package dev.braid.core;

/** The local side failed: no space, no permission, a missing folder, a target that exists, a file another process is downloading, or the state database. */
public final class LocalFileException extends DownloadException {
  /**
   * A local failure described by {@code message}.
   *
   * @param message what happened, in one line a user can act on
   */
  public LocalFileException(String message) {
    super(message, null);
  }

  /**
   * A local failure described by {@code message}, caused by {@code cause}.
   *
   * @param message what happened, in one line a user can act on
   * @param cause the underlying failure, or null
   */
  public LocalFileException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * A failure whose detail the thrower knows, kept with its kind in the state database
   * ({@link Download#failure()}).
   *
   * @param message what happened, in one line a user can act on
   * @param cause the underlying error, or null
   * @param detail what failed, e.g. {@link FailureDetail#DISK_FULL}
   */
  public LocalFileException(String message, Throwable cause, FailureDetail detail) {
    super(message, cause, detail);
  }
}
