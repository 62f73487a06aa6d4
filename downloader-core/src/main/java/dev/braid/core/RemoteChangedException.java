package dev.braid.core;

/** The remote file is not the one whose bytes are on disk (another ETag, Last-Modified or length), or it cannot be resumed, and the request forbade starting again from zero. */
public final class RemoteChangedException extends DownloadException {
  public RemoteChangedException(String message) {
    super(message, null);
  }

  public RemoteChangedException(String message, Throwable cause) {
    super(message, cause);
  }
}
