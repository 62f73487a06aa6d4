package dev.braid.store;

/**
 * What Braid learned about a host, to start the next download there well.
 *
 * @param host {@code host:port}, with {@code " h2"} appended for what was learned over HTTP/2 streams
 * @param limit the most concurrent connections the server tolerated before refusing more, or 0
 *     when it never refused
 * @param connections the connection count the last download settled on
 * @param bytesPerSecond the throughput it reached
 * @param updatedMillis when this was recorded (epoch milliseconds)
 */
public record HostMemory(String host, int limit, int connections, double bytesPerSecond, long updatedMillis) {
  /** Appended to a host's key for what was learned over HTTP/2 streams of one connection. */
  private static final String HTTP2_SUFFIX = " h2";

  /**
   * {@return the key of {@code hostPort}'s memory: itself, or marked for HTTP/2}
   *
   * @param hostPort the host, as {@code host:port}
   * @param http2 whether it is learned over HTTP/2 streams
   */
  public static String key(String hostPort, boolean http2) {
    return http2 ? hostPort + HTTP2_SUFFIX : hostPort;
  }

  /** {@return whether this was learned over HTTP/2 streams} */
  public boolean overHttp2() {
    return host.endsWith(HTTP2_SUFFIX);
  }

  /** {@return the host this is about, {@code host:port}, without the HTTP/2 mark} */
  public String hostPort() {
    return overHttp2() ? host.substring(0, host.length() - HTTP2_SUFFIX.length()) : host;
  }
}
