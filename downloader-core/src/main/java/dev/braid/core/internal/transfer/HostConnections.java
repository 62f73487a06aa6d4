package dev.braid.core.internal.transfer;

import dev.braid.core.DownloadRequest;
import dev.braid.core.TransferMetrics;
import dev.braid.core.internal.http.ConnectionWarmup;
import dev.braid.core.internal.http.PhaseRecorder;
import dev.braid.core.internal.http.Protocol;
import dev.braid.core.internal.metrics.SpeedMeter;
import dev.braid.store.HostKnowledge;
import dev.braid.store.HostMemory;
import dev.braid.store.RemoteIdentity;
import dev.braid.store.StoreException;
import java.net.URI;
import java.time.Clock;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executor;

/**
 * How many connections one download opens to its host: the controller of each pass, started and
 * capped from what the store remembers of the host; the connections warmed while the probe is in
 * flight; and what a pass learned, recorded for the next download there.
 *
 * <p>Threads: the download's driver thread only (each pass's set-up and end); the host memory it
 * read is kept for the pass in plain fields.
 */
final class HostConnections {
  /** The download's request; the counts and the split size read here stay when its link moves. */
  private final DownloadRequest request;
  /** Hears each pass's starting count. */
  private final DownloadLog log;
  /** Wall time, for the age of what is remembered of the host. */
  private final Clock clock;
  private final HostKnowledge hosts;
  private final ProtocolRoute route;
  private final ConnectionBudget budget;
  private final PhaseRecorder recorder;
  private final Executor workers;
  private final SpeedMeter meter;
  /** The host memory this pass read ({@link #hostMemory}), and its key; null before the pass reads it. */
  private String hostMemoryKey;
  private Optional<HostMemory> hostMemoryRead;

  /**
   * @param hosts what the store remembers of hosts, read at each pass and written at its end
   * @param workers runs the warm-up's connects
   * @param meter the download's speed, whose peak is remembered for the host
   */
  HostConnections(DownloadRequest request, DownloadLog log, Clock clock, HostKnowledge hosts, ProtocolRoute route, ConnectionBudget budget,
      PhaseRecorder recorder, Executor workers, SpeedMeter meter) {
    this.request = request;
    this.log = log;
    this.clock = clock;
    this.hosts = hosts;
    this.route = route;
    this.budget = budget;
    this.recorder = recorder;
    this.workers = workers;
    this.meter = meter;
  }

  /**
   * The controller for a pass: a pinned count when the request fixes one, else a start and a cap
   * from what the store remembers about the host over the pass's HTTP version (see
   * {@link HostPolicy}).
   *
   * @param protocolWhy why the pass uses its HTTP version, noted with the start; null when forced
   */
  ConnectionController controllerFor(RemoteIdentity id, long now, String protocolWhy) {
    boolean parallel = id.ranges() && id.length() > 0;
    if (!parallel) {
      return new ConnectionController(1, 1, true, now);
    }
    String over = protocolWhy == null ? "" : "; over " + protocolWhy;
    if (request.connections().isPresent()) {
      int n = request.connections().getAsInt();
      if (protocolWhy != null) {
        log.changed(0, n, "start: pinned" + over);
      }
      return new ConnectionController(n, n, true, now);
    }
    Optional<HostMemory> memory = hostMemory(memoryKey(id));
    long rtt = roundTripNanos();
    HostPolicy policy = HostPolicy.of(memory, request.maxConnections(), clock.millis(), rtt);
    log.changed(0, policy.start(), policy.why() + over);
    return new ConnectionController(policy.start(), policy.cap(), false, now, rtt);
  }

  /**
   * Starts opening, while the probe of {@code uri} is in flight, connections this download's
   * ranges are about to use: the start count for the host less the probe's own connection, within
   * what the connection budget grants now, and no more than the bytes can use ({@link WarmCount}):
   * for a resume, what the {@code remaining} bytes beyond the probe's {@code probeTakes} allow;
   * for a fresh download, whose length nothing tells yet, one. Only for a host whose memory says
   * downloads there ran ranges on several connections: a batch of small files (one connection
   * each) must not open connections it never uses. The caller cancels the warm-up when its pass ends.
   */
  ConnectionWarmup warmFor(URI uri, OptionalLong remaining, long probeTakes) {
    String host = hostOf(uri);
    HostPolicy policy = HostPolicy.of(hostMemory(host), request.maxConnections(), clock.millis(), 0);
    if (!policy.remembered()) {
      return ConnectionWarmup.NONE;
    }
    int start = request.connections().orElse(policy.start());
    int usable = remaining.isPresent()
        ? WarmCount.usable(remaining.getAsLong(), probeTakes, start, request.minSplitSize())
        : WarmCount.UNKNOWN_LENGTH_EXTRA;
    // the probe holds its own permit already: what the budget has left is for the others
    return route.warm(uri, Math.min(Math.min(start - 1, budget.available(host)), usable), false, recorder, workers);
  }

  /**
   * After the probe's head, with the length known: warms up to {@code usable} connections besides
   * the probe's for {@code uri}, those already idle in the pool counted, within the budget. The
   * caller asks only when {@link #warmFor} warmed (a remembered host) and cancels it when its pass ends.
   */
  ConnectionWarmup warmRest(URI uri, int usable) {
    return route.warm(uri, Math.min(usable, budget.available(hostOf(uri))), true, recorder, workers);
  }

  /**
   * The round-trip time seen so far: a TCP connect takes one, so their mean is the estimate; with
   * every request on a reused connection, the mean time to first byte (a round trip plus the
   * server's own time) stands in. 0 before any request.
   */
  private long roundTripNanos() {
    TransferMetrics m = recorder.snapshot(0);
    if (m.connectionsOpened() > 0) {
      return m.connectTime().toNanos() / m.connectionsOpened();
    }
    return m.requests() > 0 ? m.timeToFirstByte().toNanos() / m.requests() : 0;
  }

  /**
   * The host's key in the connection memory: {@code host:port}, with {@code " h2"} appended over
   * HTTP/2, where the count is of streams on one connection and a server's limit on connections
   * does not apply.
   */
  private String memoryKey(RemoteIdentity id) {
    return HostMemory.key(hostOf(id), route.protocolFor(URI.create(id.finalUrl())) == Protocol.HTTP_2);
  }

  /**
   * The host memory under {@code key}, read once per pass: the warm-up before the probe and the
   * controller after it ask for the same host (in a batch, twice per file).
   */
  private Optional<HostMemory> hostMemory(String key) {
    if (!key.equals(hostMemoryKey)) {
      hostMemoryRead = hosts.host(key);
      hostMemoryKey = key;
    }
    return hostMemoryRead;
  }

  /** Records what this pass learned about the host for the next download there. */
  void remember(RemoteIdentity id, WorkerPool pool) {
    // the next pass reads the memory afresh, this one's included
    hostMemoryKey = null;
    if (pool == null || request.connections().isPresent() || !id.ranges()) {
      return;
    }
    ConnectionController c = pool.controller();
    String key = memoryKey(id);
    try {
      // a pass too short to measure still shows that the host serves ranges on several connections:
      // noted once, so that the next download warms its connections (see warmFor); a small file,
      // one connection, notes nothing, and never replaces what a large one measured
      if (!c.learned() && (pool.peakWorkers() < 2 || hosts.host(key).isPresent())) {
        return;
      }
      // unmeasured, the count that ran, not the target: the plan may have had pieces for fewer
      // (16 MiB on an 80 ms path: 15 of 16), and the next download warms that many
      int connections = c.learned() ? c.target() : pool.peakWorkers();
      hosts.remember(new HostMemory(key, c.serverLimited() ? c.limit() : 0, Math.max(1, connections),
          meter.reachedBytesPerSecond(), clock.millis()));
    } catch (StoreException e) {
      // host memory is an optimisation; the download's own outcome matters more
    }
  }

  static String hostOf(RemoteIdentity id) {
    return hostOf(URI.create(id.finalUrl()));
  }

  /** {@code host:port}, with the scheme's default port when the URL names none. */
  static String hostOf(URI u) {
    int port = u.getPort() >= 0 ? u.getPort() : "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
    return u.getHost() + ":" + port;
  }
}
