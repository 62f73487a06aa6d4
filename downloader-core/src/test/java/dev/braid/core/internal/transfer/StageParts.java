package dev.braid.core.internal.transfer;

import dev.braid.core.DownloadRequest;
import dev.braid.core.HostResolver;
import dev.braid.core.HttpVersion;
import dev.braid.core.internal.http.HttpSettings;
import dev.braid.core.internal.http.HttpTransport;
import dev.braid.core.internal.http.OriginHeaders;
import dev.braid.core.internal.http.PhaseRecorder;
import dev.braid.core.internal.http.ProxyPlan;
import dev.braid.core.internal.http.RequestProxy;
import dev.braid.core.internal.limit.Throttle;
import dev.braid.core.internal.limit.TokenBucket;
import dev.braid.core.internal.metrics.SpeedMeter;
import dev.braid.core.internal.probe.ProbeResult;
import dev.braid.core.internal.probe.Prober;
import dev.braid.core.rules.Rules;
import dev.braid.core.time.Ticker;
import dev.braid.store.StateStore;
import dev.braid.store.StoreLocation;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.LongAdder;

/**
 * The real parts a stage is built from, for its own tests: a loopback test server, a SQLite store
 * in a temporary folder (opened through the store's provider, as the engine opens it), an HTTP
 * client, and one download's route, recorder, budget and log. No job, no Braid.
 */
final class StageParts implements AutoCloseable {
  /** Three retries with waits of 10-50 ms: a test of a retry takes milliseconds. */
  static final EngineSettings SETTINGS = new EngineSettings(3, 64 << 10, Duration.ofMillis(200), Duration.ofMillis(10),
      Duration.ofMillis(50), 0, null, HttpVersion.HTTP_1_1, Ticker.SYSTEM, Clock.systemUTC());

  final TestServer server;
  final StateStore store;
  final HttpTransport http;
  final ProtocolRoute route;
  final PhaseRecorder recorder = new PhaseRecorder();
  final DownloadLog log = new DownloadLog(Ticker.SYSTEM);
  final ConnectionBudget budget;

  StageParts(Path dir) throws IOException {
    server = TestServer.start();
    store = StoreLocation.open(dir.resolve("state.db").toString());
    http = new HttpTransport(new HttpSettings(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(5),
        Duration.ofSeconds(5), 8, 5, "braid-test", false, null, false, HostResolver.SYSTEM, Duration.ofSeconds(60),
        ProxyPlan.DIRECT, Duration.ofSeconds(30), Ticker.SYSTEM));
    route = new ProtocolRoute(http, RequestProxy.ENGINE, store.hosts(), HttpVersion.HTTP_1_1, Clock.systemUTC());
    budget = new ConnectionBudget(16, 8, Rules.NONE, store.grants(), "stage-test");
  }

  URI url(String path) {
    return URI.create(server.url(path));
  }

  /** A probe of {@code path} for bytes {@code [from, to)}, as the probe stage sends it. */
  ProbeResult probe(String path, long from, long to) throws Exception {
    return Prober.probe(route, url(path), OriginHeaders.NONE, recorder, from, to);
  }

  /**
   * What a pass of {@code request} is built from, as a download builds it: these parts, a new
   * speed meter and byte count, no rate limit, {@code workers} to run the worker loops.
   */
  DownloadParts download(DownloadRequest request, Executor workers, Deadline deadline) {
    SpeedMeter meter = new SpeedMeter(5_000);
    HostConnections hosts = new HostConnections(request, log, Clock.systemUTC(), store.hosts(), route, budget, recorder, workers, meter);
    return new DownloadParts(SETTINGS, store.records(), store.location(), route, recorder, budget, hosts, workers,
        new Throttle(new TokenBucket(0, Ticker.SYSTEM), new TokenBucket(0, Ticker.SYSTEM)), new LongAdder(), meter, log, deadline);
  }

  /** A deadline that never passes. */
  Deadline noDeadline() {
    return new Deadline(null, log::elapsed);
  }

  static byte[] bytes(Content c, long from, int length) {
    byte[] b = new byte[length];
    c.read(from, b, 0, length);
    return b;
  }

  @Override
  public void close() {
    http.close();
    store.close();
    server.close();
  }
}
