package dev.braid.core;

/** The remote file is not the one whose bytes are on disk (another ETag, Last-Modified or length), or it cannot be resumed, and the request forbade starting again from zero. */
public final class RemoteChangedException extends DownloadException {
  /**
   * A changed remote file described by {@code message}.
   *
   * @param message what happened, in one line a user can act on
   */
  public RemoteChangedException(String message) {
    super(message, null);
  }

  /**
   * A changed remote file described by {@code message}, caused by {@code cause}.
   *
   * @param message what happened, in one line a user can act on
   * @param cause the underlying failure, or null
   */
  public RemoteChangedException(String message, Throwable cause) {
    super(message, cause);
  }
}
