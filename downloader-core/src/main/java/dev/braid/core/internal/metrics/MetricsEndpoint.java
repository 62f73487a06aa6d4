package dev.braid.core.internal.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The HTTP server Prometheus scrapes ({@code GET /metrics}, text format), bound to exactly the
 * address it is given: the exporter would listen on every interface unless told a host.
 */
public final class MetricsEndpoint implements AutoCloseable {
  private final HTTPServer server;
  private final InetSocketAddress address;

  private MetricsEndpoint(HTTPServer server, InetSocketAddress address) {
    this.server = server;
    this.address = address;
  }

  /**
   * Starts serving {@code metrics} on {@code address} (port 0: any free port).
   *
   * @throws IOException when the address cannot be bound (a port in use)
   */
  public static MetricsEndpoint start(InetSocketAddress address, PrometheusMetrics metrics) throws IOException {
    HTTPServer server = HTTPServer.builder().inetAddress(address.getAddress()).port(address.getPort())
        .registry(metrics.registry()).buildAndStart();
    return new MetricsEndpoint(server, new InetSocketAddress(address.getAddress(), server.getPort()));
  }

  /** Where it listens (the real port when 0 was asked for). */
  public InetSocketAddress address() {
    return address;
  }

  @Override
  public void close() {
    server.close();
  }
}
