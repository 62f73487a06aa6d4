package dev.braid.core;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A moment of a download, cheap to take as often as a display refreshes.
 *
 * @param length total bytes, or -1 while unknown
 * @param done bytes on disk (reused and fetched)
 * @param bytesPerSecond throughput over the last few seconds
 * @param connections connections streaming right now
 * @param elapsed since this run started
 * @param segments the ranges the file is split into, in start order (empty when not driven by this process)
 */
public record Progress(long length, long done, double bytesPerSecond, int connections, Duration elapsed,
    List<Segment> segments) {
  /**
   * Copies the segments, so that the moment stays as it was taken.
   *
   * @param length total bytes, or -1 while unknown
   * @param done bytes on disk
   * @param bytesPerSecond throughput over the last few seconds
   * @param connections connections streaming right now
   * @param elapsed since this run started
   * @param segments the ranges the file is split into, in start order
   */
  public Progress {
    segments = List.copyOf(segments);
  }

  /**
   * {@return progress with no run behind it (queued, paused, or driven by another process)}
   *
   * @param length the file's length, -1 when unknown
   * @param done the bytes done
   */
  public static Progress idle(long length, long done) {
    return new Progress(length, done, 0, 0, Duration.ZERO, List.of());
  }

  /** {@return estimated time left at the current speed, when length and speed are known} */
  public Optional<Duration> eta() {
    if (length < 0 || bytesPerSecond <= 0) {
      return Optional.empty();
    }
    return Optional.of(Duration.ofMillis((long) ((length - done) * 1000 / bytesPerSecond)));
  }

  /** {@return done fraction between 0 and 1, or -1 while the length is unknown} */
  public double fraction() {
    return length <= 0 ? (length == 0 ? 1 : -1) : Math.min(1, (double) done / length);
  }

  /**
   * One range of the file.
   *
   * @param start first byte
   * @param end byte after the last one, or -1 when the length is unknown
   * @param done bytes written from {@code start}
   * @param active whether a connection is fetching it now
   */
  public record Segment(long start, long end, long done, boolean active) {}
}
