package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.InvalidRequestException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/** Options of the engine shared by the commands that download ({@code get}, {@code resume}). */
final class EngineOptions {
  @Option(names = "--state-db", paramLabel = "FILE", description = "state database (default: $XDG_DATA_HOME/braid/state.db, else ~/.local/share/braid/state.db)")
  Path stateDb;

  @Option(names = "--connect-timeout", paramLabel = "SECONDS", description = "TCP connect limit (default: ${DEFAULT-VALUE})")
  double connectTimeout = 15;

  @Option(names = "--read-timeout", paramLabel = "SECONDS", description = "drop a connection silent this long and retry its range (default: ${DEFAULT-VALUE})")
  double readTimeout = 30;

  @Option(names = "--retries", paramLabel = "N", description = "failed tries in a row before giving up (default: ${DEFAULT-VALUE})")
  int retries = 5;

  @Option(names = "--lowest-speed", paramLabel = "SIZE", converter = ByteSizeConverter.class,
      description = "replace a connection slower than SIZE per second for 3 s (default: 1K; 0: only stalls)")
  long lowestSpeed = 1024;

  @Option(names = "--limit-rate", paramLabel = "SIZE", converter = ByteSizeConverter.class,
      description = "at most SIZE per second for all downloads together, e.g. 500K or 4M (default: no limit)")
  long limitRate;

  @Option(names = "--ca-cert", paramLabel = "FILE", description = "also trust the CA certificates in this PEM file (a private CA)")
  Path caCert;

  @Option(names = "--allow-insecure-redirects", description = "follow a redirect from https to plain http (refused by default)")
  boolean allowDowngrade;

  @Option(names = "--metrics-port", paramLabel = "PORT",
      description = "serve Prometheus metrics on http://ADDRESS:PORT/metrics while running (0: any free port; default: off)")
  Integer metricsPort;

  @Option(names = "--metrics-address", paramLabel = "ADDRESS",
      description = "the address --metrics-port listens on (default: ${DEFAULT-VALUE}; another exposes the metrics to the network)")
  String metricsAddress = "127.0.0.1";

  /** The builder these options describe. */
  Braid.Builder builder() throws InvalidRequestException {
    Braid.Builder b = Braid.builder()
        .connectTimeout(seconds(connectTimeout)).readTimeout(seconds(readTimeout)).maxRetries(retries)
        .allowHttpsToHttpRedirects(allowDowngrade).lowestSpeed(lowestSpeed).rateLimit(limitRate);
    if (stateDb != null) {
      b.stateDatabase(stateDb);
    }
    if (caCert != null) {
      b.caCertificates(caCert);
    }
    if (metricsPort != null) {
      try {
        b.metricsEndpoint(new InetSocketAddress(metricsAddress, metricsPort));
      } catch (IllegalArgumentException e) {
        throw new InvalidRequestException("--metrics-port/--metrics-address: " + e.getMessage(), e);
      }
    }
    return b;
  }

  /** Tells where the metrics are served, when they are (the real port when 0 was given). */
  static void announceMetrics(Braid braid, PrintStream err) {
    braid.metricsAddress().ifPresent(a ->
        err.println("braid: metrics on http://" + a.getAddress().getHostAddress() + ":" + a.getPort() + "/metrics"));
  }

  private static Duration seconds(double s) {
    return Duration.ofMillis((long) (s * 1000));
  }
}
