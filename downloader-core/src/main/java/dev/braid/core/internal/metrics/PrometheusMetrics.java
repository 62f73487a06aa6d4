package dev.braid.core.internal.metrics;

import dev.braid.core.internal.http.PhaseListener;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The Prometheus instruments of one {@code Braid}, in a registry of its own (two instances in one
 * JVM do not collide): connection phases as histograms and counters, fed as they happen through
 * {@link PhaseListener}; bytes, downloads by state and open connections read when scraped.
 */
public final class PrometheusMetrics implements PhaseListener {
  /** Loopback answers in microseconds, a far server's handshake in a second or more. */
  private static final double[] SECONDS = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
      5, 10, 30};

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Histogram dnsSeconds = histogram("braid_dns_duration_seconds", "Time to a DNS answer (cached ones included)");
  private final Histogram connectSeconds = histogram("braid_connect_duration_seconds", "TCP connect time of new connections");
  private final Histogram tlsSeconds = histogram("braid_tls_handshake_duration_seconds", "TLS handshake time");
  private final Histogram firstByteSeconds = histogram("braid_first_byte_duration_seconds",
      "Time from sending a request to its response head");
  private final Counter dnsLookups = counter("braid_dns_lookups_total", "DNS look-ups, by whether the cache answered", "cache");
  private final Counter connections = counter("braid_connections_opened_total", "TCP connections opened");
  private final Counter handshakes = counter("braid_tls_handshakes_total", "TLS handshakes, by whether a session was resumed",
      "resumed");
  private final Counter requests = counter("braid_requests_total",
      "Requests whose response head arrived, by whether their connection had carried a request before", "connection");
  private final Counter retries = counter("braid_retries_total", "Requests tried again after a failure");

  /**
   * @param bytes body bytes received into files so far (monotonic)
   * @param downloadsByState downloads of the state database by state name, read at each scrape
   * @param activeConnections connections held open right now
   */
  public PrometheusMetrics(LongSupplier bytes, Supplier<Map<String, Long>> downloadsByState, IntSupplier activeConnections) {
    // every series exists from the start at 0: a rate() over the first increment then sees it
    dnsLookups.initLabelValues("hit");
    dnsLookups.initLabelValues("miss");
    handshakes.initLabelValues("true");
    handshakes.initLabelValues("false");
    requests.initLabelValues("new");
    requests.initLabelValues("reused");
    CounterWithCallback.builder().name("braid_downloaded_bytes_total").help("Body bytes received into files")
        .callback(cb -> cb.call(bytes.getAsLong())).register(registry);
    GaugeWithCallback.builder().name("braid_downloads").help("Downloads in the state database, by state")
        .labelNames("state").callback(cb -> downloadsByState.get().forEach((state, n) -> cb.call(n, state)))
        .register(registry);
    GaugeWithCallback.builder().name("braid_connections_active").help("Connections open for downloads right now")
        .callback(cb -> cb.call(activeConnections.getAsInt())).register(registry);
  }

  /** What the endpoint serves. */
  public PrometheusRegistry registry() {
    return registry;
  }

  @Override
  public void dns(long nanos, boolean asked) {
    dnsSeconds.observe(seconds(nanos));
    dnsLookups.labelValues(asked ? "miss" : "hit").inc();
  }

  @Override
  public void connected(long nanos) {
    connectSeconds.observe(seconds(nanos));
    connections.inc();
  }

  @Override
  public void handshake(long nanos, boolean resumed) {
    tlsSeconds.observe(seconds(nanos));
    handshakes.labelValues(Boolean.toString(resumed)).inc();
  }

  @Override
  public void firstByte(long nanos, boolean reusedConnection) {
    firstByteSeconds.observe(seconds(nanos));
    requests.labelValues(reusedConnection ? "reused" : "new").inc();
  }

  @Override
  public void retry() {
    retries.inc();
  }

  private Histogram histogram(String name, String help) {
    // classic buckets: the text format (the only one served) has no native histograms
    return Histogram.builder().name(name).help(help).classicOnly().classicUpperBounds(SECONDS).register(registry);
  }

  private Counter counter(String name, String help, String... labels) {
    return Counter.builder().name(name).help(help).labelNames(labels).register(registry);
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }
}
