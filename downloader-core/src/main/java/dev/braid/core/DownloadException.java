package dev.braid.core;

/**
 * Why a download did not complete. Each subclass is one kind of cause, matched one-to-one by the
 * command line's exit codes; the message is one line a user can act on. Bytes already on disk are
 * kept and recorded whatever the cause, so the same request can resume.
 */
public abstract class DownloadException extends Exception {
  /** What the failure was more precisely, where the thrower knew it; read by {@link StoredFailure}. */
  private final FailureDetail detail;

  /**
   * A failure described by {@code message}, caused by {@code cause}.
   *
   * @param message what happened, in one line a user can act on
   * @param cause the underlying failure, or null
   */
  protected DownloadException(String message, Throwable cause) {
    this(message, cause, FailureDetail.NONE);
  }

  DownloadException(String message, Throwable cause, FailureDetail detail) {
    super(message, cause);
    if (detail == null) {
      throw new IllegalArgumentException("a failure's detail is required (FailureDetail.NONE for none)");
    }
    this.detail = detail;
  }

  /** The detail the thrower gave, {@link FailureDetail#NONE} when it gave none. */
  FailureDetail givenDetail() {
    return detail;
  }
}
