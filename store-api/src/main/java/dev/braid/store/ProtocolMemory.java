package dev.braid.store;

/**
 * What one HTTP version delivered from a host, so that the next download there can use the faster
 * one (HTTP/2 streams on one connection or several HTTP/1.1 connections).
 *
 * @param host {@code host:port}
 * @param protocol the ALPN name of the version: {@code http/1.1} or {@code h2}
 * @param offered false when the server refused the version (its TLS handshake chose another by
 *     ALPN); {@code bytesPerSecond} is then 0
 * @param bytesPerSecond the throughput of the last download measured over it
 * @param updatedMillis when this was recorded (epoch milliseconds)
 */
public record ProtocolMemory(String host, String protocol, boolean offered, double bytesPerSecond, long updatedMillis) {}
