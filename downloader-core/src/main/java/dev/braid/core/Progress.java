package dev.braid.core;

import java.time.Duration;
import java.util.Optional;

/**
 * A moment of a running download, cheap to take as often as a display refreshes.
 *
 * @param length total bytes, or -1 while unknown
 * @param done bytes on disk (reused and fetched)
 * @param bytesPerSecond throughput over the last few seconds
 * @param connections connections streaming right now
 * @param elapsed since this run started
 */
public record Progress(long length, long done, double bytesPerSecond, int connections, Duration elapsed) {
  /** Estimated time left at the current speed, when length and speed are known. */
  public Optional<Duration> eta() {
    if (length < 0 || bytesPerSecond <= 0) {
      return Optional.empty();
    }
    return Optional.of(Duration.ofMillis((long) ((length - done) * 1000 / bytesPerSecond)));
  }
}
