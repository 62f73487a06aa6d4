package dev.braid.core;

import java.time.Duration;
import java.util.Locale;

/**
 * Something in a download's course worth telling that changes no connection count: a mirror left
 * out, a URL that failed and the mirror tried next, a server quirk worked around (If-Range
 * answered with the whole file), a protocol trial stopped. {@code braid --debug} prints them.
 *
 * @param at time since the download started
 * @param message what happened, in words
 */
public record DownloadNote(Duration at, String message) {
  /**
   * Checks its arguments: both are required.
   *
   * @param at time since the download started
   * @param message what happened, in words
   */
  public DownloadNote {
    if (at == null || message == null) {
      throw new IllegalArgumentException("a note needs a time and a message");
    }
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%.1fs %s", at.toMillis() / 1000.0, message);
  }
}
