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
public record HostMemory(String host, int limit, int connections, double bytesPerSecond, long updatedMillis) {}
