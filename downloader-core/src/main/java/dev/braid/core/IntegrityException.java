package dev.braid.core;

/** What arrived cannot be trusted: the server kept answering with ranges other than those asked for, or a checksum did not match. */
public final class IntegrityException extends DownloadException {
  /**
   * An integrity failure described by {@code message}.
   *
   * @param message what happened, in one line a user can act on
   */
  public IntegrityException(String message) {
    super(message, null);
  }

  /**
   * An integrity failure described by {@code message}, caused by {@code cause}.
   *
   * @param message what happened, in one line a user can act on
   * @param cause the underlying failure, or null
   */
  public IntegrityException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * A failure whose detail the thrower knows, kept with its kind in the state database
   * ({@link Download#failure()}).
   *
   * @param message what happened, in one line a user can act on
   * @param cause the underlying error, or null
   * @param detail the check that failed, e.g. {@link FailureDetail#CHECKSUM}
   */
  public IntegrityException(String message, Throwable cause, FailureDetail detail) {
    super(message, cause, detail);
  }
}
