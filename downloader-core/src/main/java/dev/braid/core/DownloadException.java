package dev.braid.core;

/**
 * Why a download did not complete. Each subclass is one kind of cause, matched one-to-one by the
 * command line's exit codes; the message is one line a user can act on. Bytes already on disk are
 * kept and recorded whatever the cause, so the same request can resume.
 */
public abstract class DownloadException extends Exception {
  /**
   * A failure described by {@code message}, caused by {@code cause}.
   *
   * @param message what happened, in one line a user can act on
   * @param cause the underlying failure, or null
   */
  protected DownloadException(String message, Throwable cause) {
    super(message, cause);
  }
}
