package dev.braid.core;

import java.time.Duration;

/**
 * The connection controller changed how many connections a download uses, and why (or replaced
 * one). Events that change no count are {@link DownloadNote}s.
 *
 * @param at time since the download started
 * @param from connections before
 * @param to connections after
 * @param reason why, in words (ramp, plateau, server limit, slow connection replaced, ...)
 */
public record ConnectionChange(Duration at, int from, int to, String reason) {
  @Override
  public String toString() {
    return String.format(java.util.Locale.ROOT, "%.1fs connections %d -> %d: %s", at.toMillis() / 1000.0, from, to, reason);
  }
}
