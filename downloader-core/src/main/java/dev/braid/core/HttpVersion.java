package dev.braid.core;

/**
 * Which HTTP version a {@link Braid} speaks to https servers. Plain http URLs and targets reached
 * through a proxy always use HTTP/1.1.
 *
 * <p>HTTP/1.1 over several connections is the default: on loopback it measured faster than
 * HTTP/2 streams on one connection (see the README), it needs no server support beyond ranges,
 * and {@link #AUTO} would spend a download per host finding that out. Where HTTP/2 may win (long
 * round trips, servers that limit or throttle each connection), {@link #AUTO} measures both.
 */
public enum HttpVersion {
  /** HTTP/1.1: each range on a connection of its own. */
  HTTP_1_1,
  /**
   * HTTP/2 for https URLs (ALPN must agree to it, else the download fails): the ranges of a
   * download are streams on one connection.
   */
  HTTP_2,
  /**
   * Per host, whichever of the two measured faster. A host whose TLS handshake does not offer
   * {@code h2} by ALPN gets HTTP/1.1 (that answer is remembered for 7 days). Otherwise a large
   * download (at least 32 MiB to fetch) measures the version the host has no fresh measurement
   * for, HTTP/1.1 first, then HTTP/2; from then on each download uses the faster one, and the
   * slower one is measured again once its figure is a day old. Small downloads never take part
   * in a trial. What was measured is kept in the state database, so it survives restarts.
   */
  AUTO
}
