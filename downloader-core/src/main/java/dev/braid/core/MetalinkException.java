package dev.braid.core;

/**
 * A Metalink document Braid does not use: malformed XML, a DOCTYPE or entity (refused, never
 * resolved), a file name that would leave the target folder, a value out of range, a document
 * too large, or a format it does not read (Metalink 3). Nothing is downloaded from it.
 */
public final class MetalinkException extends DownloadException {
  /**
   * An unusable document described by {@code message}.
   *
   * @param message what happened, in one line a user can act on
   */
  public MetalinkException(String message) {
    super(message, null);
  }

  /**
   * An unusable document described by {@code message}, caused by {@code cause}.
   *
   * @param message what happened, in one line a user can act on
   * @param cause the underlying failure, or null
   */
  public MetalinkException(String message, Throwable cause) {
    super(message, cause);
  }
}
