package dev.braid.cli;

import static dev.braid.cli.CommandModel.flag;
import static dev.braid.cli.CommandModel.isSet;
import static dev.braid.cli.CommandModel.option;
import static dev.braid.cli.CommandModel.seconds;
import static dev.braid.cli.CommandModel.secondsText;
import static dev.braid.cli.CommandModel.set;

import dev.braid.client.remote.StateAnchor;
import dev.braid.core.Braid;
import dev.braid.core.BraidBuilder;
import dev.braid.core.ByteSize;
import dev.braid.core.DownloadRequest;
import dev.braid.core.InvalidRequestException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** Options of the engine shared by the commands that download ({@code get}, {@code resume}). */
final class EngineOptions {
  private final OptionSpec stateDb = QueueArguments.stateDb();

  private final OptionSpec connectTimeout = option(double.class, "SECONDS", "TCP connect limit (default: ${DEFAULT-VALUE})",
      "--connect-timeout").defaultValue(secondsText(Braid.DEFAULT_CONNECT_TIMEOUT)).build();

  private final OptionSpec readTimeout = option(double.class, "SECONDS",
      "drop a connection silent this long and retry its range (default: ${DEFAULT-VALUE})", "--read-timeout")
      .defaultValue(secondsText(Braid.DEFAULT_READ_TIMEOUT)).build();

  private final OptionSpec retries = option(int.class, "N", "failed tries in a row before giving up (default: ${DEFAULT-VALUE})",
      "--retries").defaultValue(String.valueOf(Braid.DEFAULT_MAX_RETRIES)).build();

  private final OptionSpec lowestSpeed = option(long.class, "SIZE",
      "replace a connection slower than SIZE per second for 3 s (default: " + ByteSize.format(Braid.DEFAULT_LOWEST_SPEED)
          + "; 0: only stalls)", "--lowest-speed")
      .converters(new ByteSizeConverter()).defaultValue(String.valueOf(Braid.DEFAULT_LOWEST_SPEED)).build();

  private final OptionSpec limitRate = option(long.class, "SIZE",
      "at most SIZE per second for all downloads together, e.g. 500K or 4M (default: no limit)", "--limit-rate")
      .converters(new ByteSizeConverter()).defaultValue("0").build();

  private final OptionSpec perHost = option(Integer.class, "N",
      "at most N connections to one host at once, all downloads together; with a postgresql:// --state-db, all workers"
          + " of the fleet together (default: " + DownloadRequest.MAX_CONNECTIONS + ")", "--max-connections-per-host").build();

  private final OptionSpec caCert = option(Path.class, "FILE",
      "also trust the CA certificates in this PEM file (a private CA)", "--ca-cert").build();

  private final OptionSpec allowDowngrade = flag("follow a redirect from https to plain http (refused by default)",
      "--allow-insecure-redirects").build();

  private final OptionSpec metricsPort = option(Integer.class, "PORT",
      "serve Prometheus metrics on http://ADDRESS:PORT/metrics while running (0: any free port; default: off)",
      "--metrics-port").build();

  private final OptionSpec metricsAddress = option(String.class, "ADDRESS",
      "the address --metrics-port listens on (default: ${DEFAULT-VALUE}; another exposes the metrics to the network)",
      "--metrics-address").defaultValue(Braid.DEFAULT_METRICS_HOST).build();

  /** Adds these options to a command's model. */
  void addTo(CommandSpec spec) {
    for (OptionSpec o : List.of(stateDb, connectTimeout, readTimeout, retries, lowestSpeed, limitRate, perHost, caCert,
        allowDowngrade, metricsPort, metricsAddress)) {
      spec.addOption(o);
    }
  }

  /** The state location these options name: {@code --state-db} (a file or a server URL), else the default file. */
  String stateLocation() {
    return QueueArguments.stateLocation(stateDb);
  }

  /** The local path the daemon's lock, port and secret files of that location are named after ({@link StateAnchor}). */
  Path stateAnchor() {
    return StateAnchor.of(stateLocation());
  }

  /** The {@code --ca-cert} file, if given. */
  Path caCertificates() {
    return caCert.getValue();
  }

  /** The builder these options describe. */
  BraidBuilder builder() throws InvalidRequestException {
    BraidBuilder b = Braid.builder().allowHttpsToHttpRedirects(isSet(allowDowngrade));
    set(connectTimeout, () -> b.connectTimeout(seconds(connectTimeout)));
    set(readTimeout, () -> b.readTimeout(seconds(readTimeout)));
    set(retries, () -> b.maxRetries(retries.<Integer>getValue()));
    set(lowestSpeed, () -> b.lowestSpeed(lowestSpeed.<Long>getValue()));
    set(limitRate, () -> b.rateLimit(limitRate.<Long>getValue()));
    QueueArguments.applyStateDb(stateDb, b);
    Integer hostCap = perHost.getValue();
    if (hostCap != null) {
      if (hostCap < 1) {
        throw new InvalidRequestException("--max-connections-per-host must be at least 1");
      }
      b.maxConnectionsPerHost(hostCap);
    }
    Path ca = caCert.getValue();
    if (ca != null) {
      b.caCertificates(ca);
    }
    Integer port = metricsPort.getValue();
    if (port != null) {
      try {
        b.metricsEndpoint(new InetSocketAddress(metricsAddress.<String>getValue(), port));
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
}
