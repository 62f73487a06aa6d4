package dev.braid.core.internal.metrics;

/**
 * Whether the Prometheus client, an optional dependency of braid-core, is on the class path. Asked
 * when the endpoint is configured, so that a job without it gets a message naming the artifact
 * instead of a NoClassDefFoundError when {@code Braid} starts.
 */
public final class PrometheusClient {
  /** What to tell a user who asked for the endpoint without the client. */
  public static final String MISSING = "the metrics endpoint needs the Prometheus client on the class path:"
      + " io.prometheus:prometheus-metrics-core and prometheus-metrics-exporter-httpserver (optional dependencies of braid-core)";

  private PrometheusClient() {}

  /** True when both the metrics and the HTTP exporter classes can be loaded. */
  public static boolean present() {
    ClassLoader loader = PrometheusClient.class.getClassLoader();
    try {
      Class.forName("io.prometheus.metrics.core.metrics.Counter", false, loader);
      Class.forName("io.prometheus.metrics.exporter.httpserver.HTTPServer", false, loader);
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
