package dev.braid.core;

/**
 * A partial download was to continue from another URL, and that URL could not be shown to serve
 * the same file: another length, or other validators and bytes that differ from the blocks on disk.
 * Nothing was spliced; the bytes on disk are kept. Starting over (overwrite) or removing the
 * download are the choices left.
 */
public final class LinkRefusedException extends DownloadException {
  /**
   * A refused link described by {@code message}.
   *
   * @param message what happened, in one line a user can act on
   */
  public LinkRefusedException(String message) {
    super(message, null);
  }
}
