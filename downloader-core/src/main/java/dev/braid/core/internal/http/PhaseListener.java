package dev.braid.core.internal.http;

/**
 * Hears every connection phase of every download of one {@code Braid} as it happens, besides the
 * download's own {@link PhaseRecorder}: the Prometheus endpoint's timings and counters. Called on
 * worker threads, concurrently; an implementation must be thread-safe and quick.
 */
public interface PhaseListener {
  /** Hears nothing: what a {@code Braid} without a metrics endpoint uses. */
  PhaseListener NONE = new PhaseListener() {};

  /** A DNS answer after {@code nanos}; {@code asked} false when the cache (or a look-up in flight) answered. */
  default void dns(long nanos, boolean asked) {}

  /** A TCP connection opened in {@code nanos}. */
  default void connected(long nanos) {}

  /** A TLS handshake completed in {@code nanos}, {@code resumed} when it continued an earlier session. */
  default void handshake(long nanos, boolean resumed) {}

  /** A response head arrived {@code nanos} after its request was sent, on a connection used before or not. */
  default void firstByte(long nanos, boolean reusedConnection) {}

  /** A request is tried again after a failure. */
  default void retry() {}
}
