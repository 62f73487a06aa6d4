package dev.braid.core;

/**
 * Which HTTP version a {@link Braid} speaks to https servers. HTTP/1.1 over several connections
 * is the default: on loopback it measured as fast as HTTP/2 streams on one connection (see the
 * README), and it needs no server support beyond ranges.
 */
public enum HttpVersion {
  /** HTTP/1.1: each range on a connection of its own. */
  HTTP_1_1,
  /**
   * HTTP/2 for https URLs (ALPN must agree to it, else the request fails): the ranges of a
   * download are streams on one connection. Plain http URLs and targets reached through a proxy
   * stay on HTTP/1.1.
   */
  HTTP_2
}
