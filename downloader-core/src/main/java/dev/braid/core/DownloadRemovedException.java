package dev.braid.core;

/**
 * The download's entry was removed from the queue ({@link Download#remove}, or {@code braid remove}
 * from another process) before it completed: it will not resume. The part file is kept or deleted
 * as the removal asked.
 */
public final class DownloadRemovedException extends DownloadException {
  /**
   * A removal described by {@code message}.
   *
   * @param message what happened, in one line a user can act on
   */
  public DownloadRemovedException(String message) {
    super(message, null);
  }
}
