package dev.braid.core.internal.engine;

import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadStream;
import dev.braid.core.HttpVersion;
import dev.braid.core.LocalFileException;
import dev.braid.core.SpeedSchedule;
import dev.braid.core.internal.hook.HookRunner;
import dev.braid.core.internal.http.HttpSettings;
import dev.braid.core.internal.http.HttpTransport;
import dev.braid.core.internal.http.LazyTlsStrategy;
import dev.braid.core.internal.http.PhaseListener;
import dev.braid.core.internal.http.Uninterruptibly;
import dev.braid.core.internal.limit.TokenBucket;
import dev.braid.core.internal.metrics.BytesTotal;
import dev.braid.core.internal.metrics.MetricsEndpoint;
import dev.braid.core.internal.metrics.PrometheusMetrics;
import dev.braid.core.internal.queue.DownloadQueue;
import dev.braid.core.internal.queue.OutageWaits;
import dev.braid.core.internal.queue.QueueSchedule;
import dev.braid.core.internal.queue.StateCalls;
import dev.braid.core.internal.queue.StoredSchedule;
import dev.braid.core.internal.transfer.ConnectionBudget;
import dev.braid.core.internal.transfer.DownloadJob;
import dev.braid.core.internal.transfer.EngineSettings;
import dev.braid.core.internal.transfer.StreamJob;
import dev.braid.core.rules.Rules;
import dev.braid.store.DownloadState;
import dev.braid.store.ProcessOwner;
import dev.braid.store.StateStore;
import dev.braid.store.StoreException;
import dev.braid.store.StoreLocation;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.cert.Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import javax.net.ssl.SSLContext;

/**
 * What a {@code Braid} is made of and runs: the HTTP client, the store, the thread pools, the
 * connection budget, the queue, the hooks and the metrics endpoint, built from a
 * {@code BraidBuilder}'s settings in the order they depend on one another, and closed in the order
 * that lets each record what it must. Braid is the public face over it; this is the wiring.
 */
public final class EngineParts {
  /** The longest wait between two tries (a server's Retry-After may ask for more). */
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);

  public final HttpTransport http;
  public final StateStore store;
  /** Whether this instance opened {@link #store} (and so closes it), rather than being given it. */
  private final boolean ownsStore;
  private final EngineSettings engine;
  private final ExecutorService drivers;
  private final ExecutorService workers;
  private final ConnectionBudget connectionBudget;
  public final TokenBucket rateLimit;
  public final DownloadQueue queue;
  public final Path downloadDirectory;
  public final MetricsEndpoint metricsEndpoint;
  /** Null without hooks: no hook threads then. */
  private final HookRunner hooks;
  public final QueueSchedule schedule;
  /** Hears every connection's phases (the Prometheus endpoint's), streams' too. */
  private final PhaseListener phases;
  /** The streams open now ({@link #stream}): {@link #close()} closes them before the threads stop. */
  private final Set<StreamJob> streams = ConcurrentHashMap.newKeySet();

  public EngineParts(EngineConfig b) throws LocalFileException {
    FutureTask<SSLContext> tls = null;
    if (b.caCertificates != null) {
      List<Certificate> cas;
      try {
        cas = LazyTlsStrategy.readCertificates(b.caCertificates);
      } catch (IOException e) {
        throw new LocalFileException(e.getMessage(), e);
      }
      // the context also loads the JDK's own CAs (~0.1 s), and the host name check a public
      // suffix list: made beside the store and the client, and the first https connection waits
      // for it if it is not ready
      tls = new FutureTask<>(() -> LazyTlsStrategy.prepare(cas));
      Thread builder = new Thread(tls, "braid-tls-context");
      builder.setDaemon(true);
      builder.start();
    }
    // the store (native library, schema) and the HTTP client (hundreds of classes) take a few
    // hundred milliseconds each to start: on two cores they start side by side
    this.ownsStore = b.store == null;
    FutureTask<StateStore> opening = new FutureTask<>(() -> ownsStore ? StoreLocation.open(b.stateLocation) : b.store);
    if (ownsStore) {
      Thread opener = new Thread(opening, "braid-store-open");
      opener.setDaemon(true);
      opener.start();
    } else {
      opening.run();
    }
    this.http = new HttpTransport(new HttpSettings(b.connectTimeout, b.tlsHandshakeTimeout, b.firstByteTimeout,
        b.readTimeout, b.maxConnectionsTotal, b.maxRedirects, b.userAgent, b.allowDowngrade, tls, b.insecure,
        b.hostResolver, b.dnsCacheTtl, b.proxies.withRules(ruleProxies(b.hostRules), host -> b.hostRules.forHost(host).proxy()), b.idleConnectionTimeout, b.ticker), b.httpVersion != HttpVersion.HTTP_1_1);
    try {
      this.store = awaitStore(opening);
    } catch (LocalFileException | RuntimeException e) {
      http.close();
      throw e;
    }
    // the schedules read b.clock in the default zone (QueueSchedule); times stored and compared read it in UTC
    Clock wall = b.clock != null ? b.clock : Clock.systemUTC();
    this.engine = new EngineSettings(b.maxRetries, b.bufferSize, b.checkpointInterval, b.firstBackoff, MAX_BACKOFF,
        b.lowestSpeed, b.deadline, b.httpVersion, b.ticker, wall);
    this.drivers = Executors.newCachedThreadPool(named("braid-download"));
    this.workers = Executors.newCachedThreadPool(named("braid-worker"));
    // the per-host cap is asked of the store's grants too: a server database's hold across a fleet
    this.connectionBudget = new ConnectionBudget(b.maxConnectionsTotal, b.maxConnectionsPerHost, b.hostRules, store.grants(),
        ProcessOwner.self());
    this.rateLimit = new TokenBucket(b.rateLimit, b.ticker);
    this.downloadDirectory = b.downloadDirectory;
    // before the queue: its loop may start stored downloads at once, and must see the windows first
    this.schedule = b.storedSchedule ? StoredSchedule.read(store, b.clock, rateLimit, b.runWindows, b.speedSchedule)
        : new QueueSchedule(b.clock, rateLimit, b.runWindows != null ? b.runWindows : List.of(),
            b.speedSchedule != null ? b.speedSchedule : SpeedSchedule.NONE);
    // without an endpoint nothing is measured beyond each download's own TransferMetrics
    BytesTotal bytes = b.metricsAddress == null ? null : new BytesTotal();
    PrometheusMetrics prometheus = bytes == null ? null
        : new PrometheusMetrics(bytes, this::downloadsByState, connectionBudget::inUse);
    this.phases = prometheus == null ? PhaseListener.NONE : prometheus;
    this.queue = new DownloadQueue(store, request -> {
      DownloadJob job = new DownloadJob(http, store, engine, request, workers, connectionBudget, rateLimit, phases);
      if (bytes != null) {
        LongSupplier fetched = () -> job.metrics().bytes();
        bytes.started(fetched);
        // the result completes after the last worker returned: the count is final
        job.result().whenComplete((r, e) -> bytes.finished(fetched));
      }
      return job;
    }, drivers, b.maxActiveDownloads, b.runQueue, schedule,
        new OutageWaits(wall, n -> ThreadLocalRandom.current().nextLong(n + 1), b.outageRetry), b.ticker);
    this.hooks = b.onComplete.isEmpty() && b.onError.isEmpty() ? null : new HookRunner(b.hookTimeout, b.hookFailures);
    if (hooks != null) {
      queue.hooks(hooks, b.onComplete, b.onError);
    }
    this.metricsEndpoint = prometheus == null ? null : startEndpoint(b.metricsAddress, prometheus);
  }

  /** The proxy URLs the host rules name. */
  private static List<String> ruleProxies(Rules rules) {
    return rules.hostRules().stream().flatMap(r -> r.proxy().stream()).toList();
  }

  private MetricsEndpoint startEndpoint(InetSocketAddress address, PrometheusMetrics prometheus) throws LocalFileException {
    try {
      return MetricsEndpoint.start(address, prometheus);
    } catch (IOException e) {
      close();
      throw new LocalFileException("cannot serve metrics on " + address.getAddress().getHostAddress() + ":"
          + address.getPort() + ": " + e.getMessage(), e);
    }
  }

  /** Every state with its count of downloads in the state database (zeros included, so a series never vanishes). */
  private Map<String, Long> downloadsByState() {
    Map<String, Long> counts = new TreeMap<>();
    for (DownloadState s : DownloadState.values()) {
      counts.put(s.name().toLowerCase(java.util.Locale.ROOT), 0L);
    }
    StateCalls.read(queue::countByState).forEach((s, n) -> counts.put(s.name().toLowerCase(java.util.Locale.ROOT), n));
    return counts;
  }

  private static StateStore awaitStore(FutureTask<StateStore> opening) throws LocalFileException {
    try {
      // the store opens in a moment either way; abandoning it would leak its connection
      return Uninterruptibly.get(opening);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof StoreException se) {
        throw new LocalFileException(se.getMessage(), se);
      }
      throw new IllegalStateException("cannot open the state database", e.getCause());
    }
  }

  /**
   * Starts a download read in order ({@code Braid.stream}): its driver on this engine's driver
   * pool, outside the queue and the store, its workers under the engine's connection budget and
   * rate limit.
   */
  public DownloadStream stream(DownloadRequest request) {
    StreamJob job = new StreamJob(http, store, engine, request, workers, connectionBudget, rateLimit, phases);
    streams.add(job);
    drivers.execute(() -> {
      try {
        job.run();
      } finally {
        streams.remove(job);
      }
    });
    return job;
  }

  /** Stops and releases everything, in the order {@code Braid.close()} describes. */
  public void close() {
    // a stream's reader is gone with its engine: its download ends, nothing of it to record
    streams.forEach(StreamJob::close);
    queue.close();
    drivers.shutdown();
    try {
      drivers.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    queue.stop();
    if (hooks != null) {
      // after the queue's last events, which may have queued hooks
      hooks.close();
    }
    workers.shutdown();
    if (metricsEndpoint != null) {
      metricsEndpoint.close();
    }
    http.close();
    if (ownsStore) {
      store.close();
    }
  }

  private static ThreadFactory named(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
      // a forgotten Braid must not keep the JVM alive; close() is what ends downloads cleanly
      t.setDaemon(true);
      return t;
    };
  }
}
