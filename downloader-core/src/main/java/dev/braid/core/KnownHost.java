package dev.braid.core;

import java.time.Instant;
import java.util.List;

/**
 * What the engine remembers of one host, from the downloads that ended there: the next download
 * to the host starts from it (its connection count, the HTTP version that served it best).
 *
 * @param host the host, as {@code host:port}
 * @param overHttp2 true when this was learned over HTTP/2 streams of one connection, false for
 *     HTTP/1.1 connections (a host may have both)
 * @param limit the most concurrent connections the server tolerated before refusing more, or 0
 *     when it never refused
 * @param connections the connection count the last download settled on
 * @param bytesPerSecond the throughput that download reached
 * @param updated when it was recorded
 * @param protocols what each HTTP version delivered from the host, by name ({@code http/1.1}, {@code h2})
 */
public record KnownHost(String host, boolean overHttp2, int limit, int connections, double bytesPerSecond,
    Instant updated, List<Protocol> protocols) {
  /**
   * Checks the host and copies the protocols.
   *
   * @param host the host, as {@code host:port}
   * @param overHttp2 whether it was learned over HTTP/2
   * @param limit the server's connection limit, or 0
   * @param connections the settled connection count
   * @param bytesPerSecond the throughput reached
   * @param updated when it was recorded
   * @param protocols what each HTTP version delivered
   */
  public KnownHost {
    if (host == null || host.isBlank() || updated == null) {
      throw new IllegalArgumentException("a known host needs its name and when it was recorded");
    }
    protocols = List.copyOf(protocols);
  }

  /**
   * What one HTTP version delivered from a host.
   *
   * @param name the protocol's ALPN name: {@code http/1.1} or {@code h2}
   * @param offered whether the server offered it
   * @param bytesPerSecond the throughput it delivered, or 0 before it was measured
   */
  public record Protocol(String name, boolean offered, double bytesPerSecond) {}
}
