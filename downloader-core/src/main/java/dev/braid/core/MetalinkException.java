package dev.braid.core;

/**
 * A Metalink document Braid does not use: malformed XML, a DOCTYPE or entity (refused, never
 * resolved), a file name that would leave the target folder, a value out of range, a document
 * too large, or a format it does not read (Metalink 3). Nothing is downloaded from it.
 */
public final class MetalinkException extends DownloadException {
  public MetalinkException(String message) {
    super(message, null);
  }

  public MetalinkException(String message, Throwable cause) {
    super(message, cause);
  }
}
