package dev.braid.core;

import java.nio.file.Path;
import java.time.Duration;

/**
 * A completed, durable download.
 *
 * @param file the final file
 * @param length its size in bytes
 * @param bytesFetched bytes written from the network in this run
 * @param bytesReused bytes kept from an earlier run (resume)
 * @param elapsed wall time of this run
 * @param restarts how often the remote file changed and the download started over
 * @param metrics how the connections spent their time (DNS, connect, TLS, first byte) and were reused
 */
public record DownloadResult(Path file, long length, long bytesFetched, long bytesReused, Duration elapsed, int restarts,
    TransferMetrics metrics) {

  /**
   * A result without connection metrics.
   *
   * @param file the final file
   * @param length its size in bytes
   * @param bytesFetched bytes written from the network in this run
   * @param bytesReused bytes kept from an earlier run
   * @param elapsed wall time of this run
   * @param restarts how often the download started over
   */
  public DownloadResult(Path file, long length, long bytesFetched, long bytesReused, Duration elapsed, int restarts) {
    this(file, length, bytesFetched, bytesReused, elapsed, restarts, TransferMetrics.NONE);
  }
}
