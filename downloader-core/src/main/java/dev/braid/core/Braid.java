package dev.braid.core;

import dev.braid.core.http.DefaultTls;
import dev.braid.core.http.HttpSettings;
import dev.braid.core.http.HttpTransport;
import dev.braid.core.http.LazyTlsStrategy;
import dev.braid.core.http.PhaseListener;
import dev.braid.core.http.ProxyPlan;
import dev.braid.core.http.Uninterruptibly;
import dev.braid.core.hook.HookRunner;
import dev.braid.core.limit.TokenBucket;
import dev.braid.core.metalink.MetalinkFetch;
import dev.braid.core.metrics.BytesTotal;
import dev.braid.core.metrics.MetricsEndpoint;
import dev.braid.core.metrics.PrometheusClient;
import dev.braid.core.metrics.PrometheusMetrics;
import dev.braid.core.rules.Rules;
import dev.braid.core.schedule.ConnectionBudget;
import dev.braid.core.schedule.DownloadJob;
import dev.braid.core.schedule.EngineSettings;
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
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import javax.net.ssl.SSLContext;

/**
 * The entry point: one per application, thread-safe. It owns the shared HTTP client, the state
 * store, the persistent download queue and the threads: the queue's loop thread, a driver thread
 * per running download, a pool of worker threads, one per open connection, and, when it has hooks,
 * two hook threads and their timer.
 * {@link #close()} pauses what is running, waits for its progress to be recorded, leaves it
 * queued for next time, and releases everything.
 *
 * <pre>{@code
 * try (Braid braid = Braid.builder().downloadDirectory(Path.of("data")).maxActiveDownloads(4).build()) {
 *   List<Download> all = new ArrayList<>();
 *   for (String u : urls) {
 *     all.add(braid.submit(DownloadRequest.builder(u).build()));
 *   }
 *   for (Download d : all) {
 *     d.result().handle((r, e) -> e == null ? "ok " + r.file() : "FAILED " + d.url() + ": " + e.getMessage())
 *         .thenAccept(System.out::println).join();
 *   }
 * }
 * }</pre>
 */
public final class Braid implements AutoCloseable {
  /** {@link Builder#connectTimeout}'s default. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(15);
  /** {@link Builder#readTimeout}'s default. */
  public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(30);
  /** {@link Builder#tlsHandshakeTimeout}'s default. */
  public static final Duration DEFAULT_TLS_HANDSHAKE_TIMEOUT = Duration.ofSeconds(15);
  /** {@link Builder#firstByteTimeout}'s default. */
  public static final Duration DEFAULT_FIRST_BYTE_TIMEOUT = Duration.ofSeconds(30);
  /** {@link Builder#maxRetries}'s default. */
  public static final int DEFAULT_MAX_RETRIES = 5;
  /** {@link Builder#lowestSpeed}'s default, bytes per second. */
  public static final long DEFAULT_LOWEST_SPEED = 1024;
  /** {@link Builder#maxActiveDownloads}'s default. */
  public static final int DEFAULT_MAX_ACTIVE_DOWNLOADS = 4;
  /** The address {@link Builder#metricsEndpoint(int)} listens on: loopback only. */
  public static final String DEFAULT_METRICS_HOST = "127.0.0.1";
  /** {@link Builder#bufferSize}'s bounds: below a few KiB a read per small piece costs more than it moves. */
  public static final int MIN_BUFFER_SIZE = 4 * 1024;
  /** The largest {@link Builder#bufferSize}: each connection holds one, 64 connections by default. */
  public static final int MAX_BUFFER_SIZE = 16 * 1024 * 1024;
  /** {@link Builder#hookTimeout}'s default: how long one hook may run before it is stopped. */
  public static final Duration DEFAULT_HOOK_TIMEOUT = Duration.ofSeconds(30);
  /** The longest wait between two tries (a server's Retry-After may ask for more). */
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);

  private final HttpTransport http;
  private final StateStore store;
  /** Whether this instance opened {@link #store} (and so closes it), rather than being given it. */
  private final boolean ownsStore;
  private final EngineSettings engine;
  private final ExecutorService drivers;
  private final ExecutorService workers;
  private final ConnectionBudget connectionBudget;
  private final TokenBucket rateLimit;
  private final DownloadQueue queue;
  private final Path downloadDirectory;
  private final MetricsEndpoint metricsEndpoint;
  /** Null without hooks: no hook threads then. */
  private final HookRunner hooks;
  private final QueueSchedule schedule;

  private Braid(Builder b) throws LocalFileException {
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
        b.hostResolver, b.dnsCacheTtl, b.proxies.withRules(b.hostRules), b.idleConnectionTimeout), b.httpVersion != HttpVersion.HTTP_1_1);
    try {
      this.store = awaitStore(opening);
    } catch (LocalFileException | RuntimeException e) {
      http.close();
      throw e;
    }
    this.engine = new EngineSettings(b.maxRetries, b.bufferSize, b.checkpointInterval, b.firstBackoff, MAX_BACKOFF,
        b.lowestSpeed, b.deadline, b.httpVersion);
    this.drivers = Executors.newCachedThreadPool(named("braid-download"));
    this.workers = Executors.newCachedThreadPool(named("braid-worker"));
    // the per-host cap is asked of the store's grants too: a server database's hold across a fleet
    this.connectionBudget = new ConnectionBudget(b.maxConnectionsTotal, b.maxConnectionsPerHost, b.hostRules, store.grants(),
        ProcessOwner.self());
    this.rateLimit = new TokenBucket(b.rateLimit);
    this.downloadDirectory = b.downloadDirectory;
    // before the queue: its loop may start stored downloads at once, and must see the windows first
    this.schedule = b.storedSchedule ? StoredSchedule.read(store, b.clock, rateLimit, b.runWindows, b.speedSchedule)
        : new QueueSchedule(b.clock, rateLimit, b.runWindows != null ? b.runWindows : List.of(),
            b.speedSchedule != null ? b.speedSchedule : SpeedSchedule.NONE);
    // without an endpoint nothing is measured beyond each download's own TransferMetrics
    BytesTotal bytes = b.metricsAddress == null ? null : new BytesTotal();
    PrometheusMetrics prometheus = bytes == null ? null
        : new PrometheusMetrics(bytes, this::downloadsByState, connectionBudget::inUse);
    PhaseListener phases = prometheus == null ? PhaseListener.NONE : prometheus;
    this.queue = new DownloadQueue(store, request -> {
      DownloadJob job = new DownloadJob(http, store, engine, request, workers, connectionBudget, rateLimit, phases);
      if (bytes != null) {
        LongSupplier fetched = () -> job.metrics().bytes();
        bytes.started(fetched);
        // the result completes after the last worker returned: the count is final
        job.result().whenComplete((r, e) -> bytes.finished(fetched));
      }
      return job;
    }, drivers, b.maxActiveDownloads, b.runQueue, schedule);
    this.hooks = b.onComplete.isEmpty() && b.onError.isEmpty() ? null : new HookRunner(b.hookTimeout, b.hookFailures);
    if (hooks != null) {
      queue.listen(null, new HookDispatch(hooks, b.onComplete, b.onError), Duration.ofDays(1));
    }
    this.metricsEndpoint = prometheus == null ? null : startEndpoint(b.metricsAddress, prometheus);
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
   * Starts the once-per-process set-up of the state database's driver on a daemon thread and
   * returns at once, so that a Braid built soon after opens its store sooner. For front ends
   * that have other work first (a command line parsing its arguments); never needed for
   * correctness. The thread ends by itself within tens of milliseconds.
   */
  public static void warmUp() {
    String location = defaultStateDatabase().toString();
    Thread t = new Thread(() -> StoreLocation.warmUp(location), "braid-warm-up");
    t.setDaemon(true);
    t.start();
  }

  /**
   * Starts the once-per-process set-up of the JDK's default TLS context (its trusted CAs, the
   * cipher suites, the public suffix list of the host name check: ~0.2 CPU-s in a new JVM) on a
   * daemon thread and returns at once, so that the first https connection finds it ready instead
   * of doing it after its TCP connect. For front ends that know an https download is coming (a
   * plain-http run would pay for nothing); never needed for correctness. A Braid with
   * {@link Builder#caCertificates} or {@link Builder#insecure} uses a context of its own.
   */
  public static void warmUpTls() {
    DefaultTls.prepare();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Whether {@code location} names a server database (a URL such as {@code postgresql://...})
   * rather than a file: a server database's engine files (a daemon's lock, port, secret) belong
   * to each machine, not beside it.
   */
  public static boolean isServerLocation(String location) {
    return StoreLocation.isUrl(location);
  }

  /** {@code location} fit to show (a server URL without its password; a file path as it is). */
  public static String describeStateLocation(String location) {
    return StoreLocation.redact(location);
  }

  /** The default state database: {@code $XDG_DATA_HOME/braid/state.db}, else {@code ~/.local/share/braid/state.db}. */
  public static Path defaultStateDatabase() {
    String xdg = System.getenv("XDG_DATA_HOME");
    Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".local", "share");
    return base.resolve("braid").resolve("state.db");
  }

  /**
   * Adds a download to the persistent queue and returns its handle at once; it starts when a slot
   * is free (see {@link Builder#maxActiveDownloads}), higher priority first, then in submission
   * order. Submitting a request for a download the queue already holds unfinished (same URL and
   * target) continues that one. When another process drives it, the handle's result fails at
   * once with a {@link LocalFileException}.
   *
   * @throws LocalFileException when the state database cannot record it (locked by another
   *     process for longer than its busy timeout, full disk)
   */
  public Download submit(DownloadRequest request) throws LocalFileException {
    return submit(request, false);
  }

  /**
   * Adds a download paused, as {@link #submit} adds one queued: it waits in the queue, fetching
   * nothing, until {@link Download#resume()}; its result fails with a {@link DownloadPausedException}.
   * An unfinished download the queue holds for the same URL and target is paused instead.
   *
   * @throws LocalFileException when the state database cannot record it
   */
  public Download submitPaused(DownloadRequest request) throws LocalFileException {
    return submit(request, true);
  }

  /**
   * Adds a download to the queue for whichever process runs it (a {@code braid daemon}, any
   * worker sharing a server database, a later {@code Braid} with {@link Builder#runQueue}) and
   * returns its handle; this {@code Braid} never starts it, and its result does not complete
   * here. An unfinished download the queue holds for the same URL and target is queued again if it
   * was paused or failed, and returned.
   * Headers and a URL refresher of {@code request}, kept in memory only, do not travel with it.
   *
   * @throws LocalFileException when the state database cannot record it
   */
  public Download enqueue(DownloadRequest request) throws LocalFileException {
    try {
      return queue.enqueue(placed(request));
    } catch (StoreException e) {
      throw new LocalFileException(e.getMessage(), e);
    }
  }

  /**
   * Submits each request as {@link #submit} does (or {@link #submitPaused}, with {@code paused}),
   * in order, and returns their handles in the same order; the new downloads among them are
   * recorded together, in one transaction of the state database (an aria2 client's multicall of
   * adds; a list of URLs).
   *
   * @throws LocalFileException when the state database cannot record them; those recorded before
   *     the failure stay
   */
  public List<Download> submitAll(List<DownloadRequest> requests, boolean paused) throws LocalFileException {
    List<DownloadRequest> placed = requests.stream().map(this::placed).toList();
    try {
      return queue.submitAll(placed, paused);
    } catch (StoreException e) {
      throw new LocalFileException(e.getMessage(), e);
    }
  }

  private Download submit(DownloadRequest request, boolean paused) throws LocalFileException {
    try {
      return queue.submit(placed(request), paused);
    } catch (StoreException e) {
      throw new LocalFileException(e.getMessage(), e);
    }
  }

  /** The request in this instance's download folder unless it names a folder of its own. */
  private DownloadRequest placed(DownloadRequest request) {
    return request.directoryGiven() ? request
        : request.toBuilder().directory(downloadDirectory != null ? downloadDirectory : request.directory()).buildUnchecked();
  }

  /**
   * Fetches the Metalink document at {@code request}'s URL into memory (its headers and
   * credentials go to the URL's origin only, as for a download) and parses it; nothing is written
   * to disk. Blocks the calling thread for one request.
   *
   * @throws MetalinkException when the answer is no Metalink, too large or malformed
   * @throws HttpStatusException when the server answers other than 200
   * @throws NetworkException when the server cannot be reached
   */
  public Metalink fetchMetalink(DownloadRequest request) throws DownloadException {
    return MetalinkFetch.fetch(http, request);
  }

  /**
   * Every download in the state database, oldest first, including those other processes drive.
   * While anyone holds a download's handle, every call returns that same object; Braid itself
   * keeps only the handles of downloads it still has to run.
   *
   * @throws StateStoreException when the state database cannot be read
   */
  public List<Download> downloads() {
    return StateCalls.read(queue::all);
  }

  /**
   * A page of the queue: the downloads whose recorded state is in {@code states}, in
   * {@code order}, from {@code offset} on (a negative offset counts from the end, -1 being the
   * last, and the page runs backwards from there, newest first), at most {@code limit} of them.
   * Only the page is read from the state database, so a store with a long history answers as
   * fast as a short one. An entry whose process ended without recording it is listed as active
   * here until an engine takes it over; its handle shows it as queued.
   *
   * @throws IllegalArgumentException when {@code limit} is negative
   * @throws StateStoreException when the state database cannot be read
   */
  public List<Download> downloads(java.util.Set<DownloadState> states, QueueOrder order, long offset, int limit) {
    Objects.requireNonNull(states, "states");
    Objects.requireNonNull(order, "order");
    if (limit < 0) {
      throw new IllegalArgumentException("a page holds 0 or more downloads, not " + limit);
    }
    return StateCalls.read(() -> queue.page(states, order, offset, limit));
  }

  /**
   * How many downloads are in each state as {@link Download#state()} shows it (states without
   * any are absent), counted from the state index without a handle per entry.
   *
   * @throws StateStoreException when the state database cannot be read
   */
  public Map<DownloadState, Long> countByState() {
    return StateCalls.read(queue::countByState);
  }

  /**
   * The download with this queue id, if the state database holds it.
   *
   * @throws StateStoreException when the state database cannot be read
   */
  public Optional<Download> download(long id) {
    return StateCalls.read(() -> queue.find(id));
  }

  /** The downloads this instance is fetching right now. */
  public List<Download> running() {
    return queue.running();
  }

  /**
   * Changes the limit on all downloads together, in bytes per second (0 for none), at once; with a
   * {@link #speedSchedule(SpeedSchedule)}, until the time reaches its next entry, and wherever it has none.
   */
  public void rateLimit(long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("bytesPerSecond cannot be negative, not " + bytesPerSecond);
    }
    schedule.rateLimit(bytesPerSecond);
  }

  /** The current limit on all downloads together (0: none), the speed schedule's where one of its entries applies. */
  public long rateLimit() {
    return rateLimit.rate();
  }

  /**
   * The windows in which the queue starts downloads, at once: outside all of them, running
   * downloads stop with their progress recorded and wait queued (not paused) for the next window
   * (the stopped run's {@link Download#result()} fails with a {@link DownloadPausedException}, the
   * next run has a new one); none starts. Empty (the default): always. Every download of this instance's queue is governed,
   * also one submitted here; see {@link Builder#runWindows}.
   */
  public void runWindows(List<RunWindow> windows) {
    schedule.windows(Objects.requireNonNull(windows, "windows"));
  }

  /** The windows in which the queue runs (empty: always). */
  public List<RunWindow> runWindows() {
    return schedule.windows();
  }

  /** Whether the queue may start downloads now (in a run window, or there are none). */
  public boolean inRunWindow() {
    return schedule.allowsStarts();
  }

  /** Limits by time of day on all downloads together, at once ({@link SpeedSchedule#NONE} for none). */
  public void speedSchedule(SpeedSchedule speeds) {
    schedule.speeds(speeds);
  }

  /** The limits by time of day. */
  public SpeedSchedule speedSchedule() {
    return schedule.speeds();
  }

  /**
   * Changes how many downloads run at once, at once: a higher limit starts waiting ones now; a
   * lower one starts no more until the running ones are below it (none is stopped for it).
   */
  public void maxActiveDownloads(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("at least one download must be able to run");
    }
    queue.maxActive(n);
  }

  /** How many downloads run at once at most. */
  public int maxActiveDownloads() {
    return queue.maxActive();
  }

  /**
   * Calls {@code listener} about every download: each state change, and progress of running ones
   * every {@code progressEvery}, on Braid's event thread.
   */
  public Registration listen(DownloadListener listener, Duration progressEvery) {
    return queue.listen(null, listener, progressEvery);
  }

  /**
   * Where the Prometheus endpoint listens ({@code GET /metrics}), if {@link Builder#metricsEndpoint}
   * turned it on; the real port when 0 was asked for.
   */
  public Optional<InetSocketAddress> metricsAddress() {
    return metricsEndpoint == null ? Optional.empty() : Optional.of(metricsEndpoint.address());
  }

  /**
   * Settings stored in the state database (an application's preferences), by key.
   *
   * @throws StateStoreException when the state database cannot be read
   */
  public Map<String, String> settings() {
    return StateCalls.read(store::settings);
  }

  /**
   * Stores a setting in the state database; null removes it.
   *
   * @throws StateStoreException when the state database cannot be written (held by another process past the busy timeout)
   */
  public void saveSetting(String key, String value) {
    StateCalls.run(() -> store.saveSetting(key, value));
  }

  /**
   * Pauses running downloads, waits (bounded) until their progress is recorded, lets the hooks of
   * the downloads that ended finish (for up to {@link Builder#hookTimeout}, then stops them), and
   * releases the client, threads and store. The paused downloads stay queued: a {@code Braid} that runs the
   * queue on the same database continues them.
   */
  @Override
  public void close() {
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

  /**
   * Configures a {@link Braid}. Every setting has a default suited to an interactive download.
   * Each setter checks its argument at once: an {@link IllegalArgumentException} or a
   * {@link NullPointerException} naming the parameter, never a failure later in {@link #build()}
   * or a download that cannot move.
   */
  public static final class Builder {
    private String stateLocation = defaultStateDatabase().toString();
    private StateStore store;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private Duration readTimeout = DEFAULT_READ_TIMEOUT;
    private int maxRetries = DEFAULT_MAX_RETRIES;
    private int maxRedirects = 10;
    private int bufferSize = 128 * 1024;
    private Duration checkpointInterval = Duration.ofMillis(500);
    private Duration firstBackoff = Duration.ofMillis(250);
    private String userAgent = "Braid/" + Version.get();
    private int maxConnectionsTotal = 64;
    private boolean allowDowngrade;
    private long lowestSpeed = DEFAULT_LOWEST_SPEED;
    private Path caCertificates;
    private Path downloadDirectory;
    private int maxActiveDownloads = DEFAULT_MAX_ACTIVE_DOWNLOADS;
    private int maxConnectionsPerHost = DownloadRequest.MAX_CONNECTIONS;
    private long rateLimit;
    private boolean runQueue;
    private Duration tlsHandshakeTimeout = DEFAULT_TLS_HANDSHAKE_TIMEOUT;
    private Duration firstByteTimeout = DEFAULT_FIRST_BYTE_TIMEOUT;
    private Duration deadline;
    private boolean insecure;
    private HostResolver hostResolver = HostResolver.SYSTEM;
    private Duration dnsCacheTtl = Duration.ofSeconds(60);
    private Duration idleConnectionTimeout = Duration.ofSeconds(30);
    private ProxyPlan proxies = ProxyPlan.DIRECT;
    private Rules hostRules = Rules.NONE;
    private InetSocketAddress metricsAddress;
    private HttpVersion httpVersion = HttpVersion.HTTP_1_1;
    private final List<DownloadHook> onComplete = new java.util.ArrayList<>();
    private final List<DownloadHook> onError = new java.util.ArrayList<>();
    private Duration hookTimeout = DEFAULT_HOOK_TIMEOUT;
    private Clock clock;
    /** Null until set: then {@link #storedSchedule} may fill it. */
    private List<RunWindow> runWindows;
    /** Null until set, as the windows. */
    private SpeedSchedule speedSchedule;
    private boolean storedSchedule;
    private Consumer<HookFailure> hookFailures = f -> System.err.println("braid: " + f);

    private Builder() {}

    /**
     * The clock the schedules read (default: the system's, in the default time zone); a test gives
     * one it moves.
     */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * The windows in which the queue starts and runs downloads (default: none, always); see
     * {@link Braid#runWindows(List)}. A front end that runs one download in the foreground at a
     * user's request ({@code braid get}) leaves them unset.
     */
    public Builder runWindows(List<RunWindow> windows) {
      Objects.requireNonNull(windows, "windows");
      windows.forEach(w -> Objects.requireNonNull(w, "windows holds a null"));
      this.runWindows = List.copyOf(windows);
      return this;
    }

    /**
     * Where {@link #runWindows} or {@link #speedSchedule} is not set, use the one stored in the
     * state database under {@link RunWindow#SETTING} or {@link SpeedSchedule#SETTING} (the queue's
     * own schedule, shared by the daemon and the desktop app); off by default. A stored value that
     * does not parse counts as none.
     */
    public Builder storedSchedule(boolean use) {
      this.storedSchedule = use;
      return this;
    }

    /** Limits by time of day on all downloads together (default {@link SpeedSchedule#NONE}); see {@link SpeedSchedule}. */
    public Builder speedSchedule(SpeedSchedule speeds) {
      this.speedSchedule = Objects.requireNonNull(speeds, "speeds");
      return this;
    }

    /**
     * Also run {@code hook} when a download this instance runs completes (the file is whole,
     * verified and renamed). Hooks run on threads of their own, at most {@link #hookTimeout} each;
     * one that fails is reported to {@link #hookFailures} and changes nothing about the download.
     */
    public Builder onDownloadComplete(DownloadHook hook) {
      onComplete.add(Objects.requireNonNull(hook, "hook"));
      return this;
    }

    /** Also run {@code hook} when a download this instance runs fails (not when it is paused or removed); as {@link #onDownloadComplete}. */
    public Builder onDownloadError(DownloadHook hook) {
      onError.add(Objects.requireNonNull(hook, "hook"));
      return this;
    }

    /** How long one hook may run (default {@link Braid#DEFAULT_HOOK_TIMEOUT}); then it is stopped (a command killed with every process it started). */
    public Builder hookTimeout(Duration timeout) {
      this.hookTimeout = positive(timeout, "timeout");
      return this;
    }

    /**
     * Where hooks that fail, time out or cannot run are reported, on a hook thread (default: a line
     * on standard error).
     */
    public Builder hookFailures(Consumer<HookFailure> listener) {
      this.hookFailures = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * The HTTP version for https servers (default {@link HttpVersion#HTTP_1_1}, several
     * connections per download); {@link HttpVersion#HTTP_2} sends the ranges as streams of one
     * connection and fails where the server does not offer HTTP/2; {@link HttpVersion#AUTO}
     * chooses per host by measured throughput.
     */
    public Builder httpVersion(HttpVersion version) {
      this.httpVersion = Objects.requireNonNull(version, "version");
      return this;
    }

    /**
     * Serve Prometheus metrics on {@code 127.0.0.1:port} (0: any free port, see
     * {@link Braid#metricsAddress()}): bytes, downloads by state, open connections, requests,
     * retries, connection reuse, TLS resumption, and DNS, connect, TLS and first-byte times as
     * histograms. Off by default.
     */
    public Builder metricsEndpoint(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port must be 0-65535, not " + port);
      }
      return metricsEndpoint(new InetSocketAddress(DEFAULT_METRICS_HOST, port));
    }

    /**
     * Serve Prometheus metrics on exactly this address; another than loopback exposes them to the
     * network (they name no URL or credential, but show what this machine downloads and how fast).
     * Null turns the endpoint off. Needs the Prometheus client on the class path
     * ({@code io.prometheus:prometheus-metrics-exporter-httpserver}, an optional dependency of
     * braid-core), else throws {@link IllegalStateException}.
     */
    public Builder metricsEndpoint(InetSocketAddress address) {
      if (address != null && (address.isUnresolved() || address.getPort() < 0 || address.getPort() > 65535)) {
        throw new IllegalArgumentException("address must be resolved, with a port 0-65535: " + address);
      }
      if (address != null && !PrometheusClient.present()) {
        throw new IllegalStateException(PrometheusClient.MISSING);
      }
      this.metricsAddress = address;
      return this;
    }

    /** Limit on the TLS handshake of a new https connection (each handshake message must arrive within it). */
    public Builder tlsHandshakeTimeout(Duration timeout) {
      this.tlsHandshakeTimeout = positive(timeout, "timeout");
      return this;
    }

    /** Limit on the wait for a response once a request is sent; then the range is retried. */
    public Builder firstByteTimeout(Duration timeout) {
      this.firstByteTimeout = positive(timeout, "timeout");
      return this;
    }

    /**
     * The longest a download may take from start to finish (default: none). Past it the download
     * stops with a {@link NetworkException}; its bytes are kept and a new start resumes them.
     * Null for none.
     */
    public Builder deadline(Duration deadline) {
      this.deadline = deadline == null ? null : positive(deadline, "deadline");
      return this;
    }

    /**
     * Accept any server certificate for any host name. Off by default; only for a server whose
     * certificate cannot be trusted any other way ({@link #caCertificates} is the safe choice).
     */
    public Builder insecure(boolean insecure) {
      this.insecure = insecure;
      return this;
    }

    /** Where host names are resolved (default: the JVM); answers are cached for {@link #dnsCacheTtl}. */
    public Builder hostResolver(HostResolver resolver) {
      this.hostResolver = Objects.requireNonNull(resolver, "resolver");
      return this;
    }

    /** How long a DNS answer is reused by every connection and download of this instance (default 60 s). */
    public Builder dnsCacheTtl(Duration ttl) {
      this.dnsCacheTtl = positive(ttl, "ttl");
      return this;
    }

    /**
     * Connect through this proxy ({@code http://host:port}: CONNECT tunnels for https, or
     * {@code socks5://host:port}), except to the hosts of {@code noProxy} (comma-separated
     * names or domain suffixes, {@code *} for all; null for none). Credentials go before the host,
     * percent-encoded ({@code http://user:pa%40ss@host:port}): Basic to an HTTP proxy, RFC 1929 to a
     * SOCKS5 proxy, never to a server. A proxy that refuses them fails the download with a
     * {@link ProxyAuthenticationException}. A null {@code url} connects directly (the default).
     *
     * @throws IllegalArgumentException for a URL that names no usable proxy
     */
    public Builder proxy(String url, String noProxy) {
      this.proxies = url == null ? ProxyPlan.DIRECT : ProxyPlan.of(url, noProxy);
      return this;
    }

    /**
     * The engine's part of a user's per-host rules: each rule's proxy (before {@link #proxy} and the
     * environment's, for its hosts) and {@code max-connections-per-host} (instead of
     * {@link #maxConnectionsPerHost}, for its hosts). The per-download settings of the rules are the
     * request's ({@link dev.braid.core.rules.HostSettings#applyTo}). Default: {@link Rules#NONE}.
     */
    public Builder hostRules(Rules rules) {
      this.hostRules = Objects.requireNonNull(rules, "rules");
      return this;
    }

    /**
     * Take the proxy from {@code http_proxy}, {@code https_proxy} and {@code no_proxy} (lower or
     * upper case), {@code all_proxy} for a scheme without its own, in {@code environment}, e.g.
     * {@code System.getenv()}. Their URLs may hold credentials, as in {@link #proxy}.
     *
     * @throws IllegalArgumentException for a variable that names no usable proxy
     */
    public Builder proxyFromEnvironment(java.util.Map<String, String> environment) {
      Objects.requireNonNull(environment, "environment");
      this.proxies = ProxyPlan.fromEnvironment(environment);
      return this;
    }

    private static Duration positive(Duration d, String name) {
      Objects.requireNonNull(d, name);
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(name + " must be positive, not " + d);
      }
      return d;
    }

    /** The folder for downloads whose request names neither a file nor a folder; null for the working directory (the default). */
    public Builder downloadDirectory(Path folder) {
      this.downloadDirectory = folder == null ? null : folder.toAbsolutePath().normalize();
      return this;
    }

    /** How many downloads run at once (default 4); the others wait in the queue. */
    public Builder maxActiveDownloads(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("n must be at least 1 (one download must be able to run), not " + n);
      }
      this.maxActiveDownloads = n;
      return this;
    }

    /** The most connections open to one host ({@code host:port}) across all downloads (default 64). */
    public Builder maxConnectionsPerHost(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("n must be positive, not " + n);
      }
      this.maxConnectionsPerHost = n;
      return this;
    }

    /** A limit on all downloads together, in bytes per second (default 0: none); changeable later. */
    public Builder rateLimit(long bytesPerSecond) {
      if (bytesPerSecond < 0) {
        throw new IllegalArgumentException("bytesPerSecond cannot be negative, not " + bytesPerSecond);
      }
      this.rateLimit = bytesPerSecond;
      return this;
    }

    /**
     * Whether this instance also runs what the database already holds queued, including downloads
     * a crashed process left behind (default false: it runs only what is submitted to it). A
     * desktop app or a batch job that must carry on after a crash turns this on.
     */
    public Builder runQueue(boolean run) {
      this.runQueue = run;
      return this;
    }

    /** Where downloads and their progress are recorded (created if absent): a SQLite database file. */
    public Builder stateDatabase(Path file) {
      this.stateLocation = Objects.requireNonNull(file, "file").toString();
      this.store = null;
      return this;
    }

    /**
     * Where downloads and their progress are recorded: a file path (SQLite, as
     * {@link #stateDatabase}), or a URL that a store module on the class path opens (such as
     * {@code postgresql://host:port/db?user=...}). Its password is never shown in a message.
     *
     * @throws IllegalArgumentException for an empty location, or one no store on the class path opens
     */
    public Builder stateLocation(String location) {
      StoreLocation.check(Objects.requireNonNull(location, "location"));
      this.stateLocation = location;
      this.store = null;
      return this;
    }

    /**
     * Records downloads in this store, already open (a library's own, or one shared by several
     * instances), instead of opening one. {@link Braid#close()} leaves it open: whoever opened
     * it closes it, after every {@code Braid} using it.
     */
    public Builder store(StateStore store) {
      this.store = Objects.requireNonNull(store, "store");
      return this;
    }

    /** Limit on establishing a TCP connection (default {@link Braid#DEFAULT_CONNECT_TIMEOUT}). */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = positive(timeout, "timeout");
      return this;
    }

    /** A connection silent for this long is dropped and its range retried elsewhere (default {@link Braid#DEFAULT_READ_TIMEOUT}). */
    public Builder readTimeout(Duration timeout) {
      this.readTimeout = positive(timeout, "timeout");
      return this;
    }

    /**
     * A kept-alive connection unused for this long is closed (default 30 s), so a long-lived
     * instance holds no sockets the servers have long given up on.
     */
    public Builder idleConnectionTimeout(Duration timeout) {
      this.idleConnectionTimeout = positive(timeout, "timeout");
      return this;
    }

    /**
     * Failed tries in a row, without progress, before a range (and then the download) gives up
     * (default {@value Braid#DEFAULT_MAX_RETRIES}; 0: no retry).
     */
    public Builder maxRetries(int n) {
      if (n < 0) {
        throw new IllegalArgumentException("n cannot be negative, not " + n);
      }
      this.maxRetries = n;
      return this;
    }

    /** The wait after the first failure (default 250 ms); it doubles with each further one, with jitter. */
    public Builder firstBackoff(Duration wait) {
      this.firstBackoff = positive(wait, "wait");
      return this;
    }

    /**
     * How often progress is forced to disk and recorded (default 0.5 s): a crash loses at most
     * this much of the download's throughput. Forcing more often costs little: every byte is
     * flushed once whatever the interval.
     */
    public Builder checkpointInterval(Duration interval) {
      this.checkpointInterval = positive(interval, "interval");
      return this;
    }

    /**
     * Bytes of the one buffer each connection reads into (default 128 KiB), from
     * {@value Braid#MIN_BUFFER_SIZE} to {@value Braid#MAX_BUFFER_SIZE}.
     */
    public Builder bufferSize(int bytes) {
      if (bytes < MIN_BUFFER_SIZE || bytes > MAX_BUFFER_SIZE) {
        throw new IllegalArgumentException("bytes must be between " + MIN_BUFFER_SIZE + " and " + MAX_BUFFER_SIZE + ", not " + bytes);
      }
      this.bufferSize = bytes;
      return this;
    }

    /** The most connections open at once across all downloads of this instance (default 64). */
    public Builder maxConnectionsTotal(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("n must be positive, not " + n);
      }
      this.maxConnectionsTotal = n;
      return this;
    }

    /**
     * A connection slower than this (bytes per second) for 3 seconds is replaced by a fresh one that
     * continues from the same byte (default 1 KiB/s; 0 leaves only stalls and the comparison with
     * the download's other connections).
     */
    public Builder lowestSpeed(long bytesPerSecond) {
      if (bytesPerSecond < 0) {
        throw new IllegalArgumentException("bytesPerSecond cannot be negative, not " + bytesPerSecond);
      }
      this.lowestSpeed = bytesPerSecond;
      return this;
    }

    /** Trust the CA certificates in this PEM file too (a private CA), besides the JDK's; null for none (the default). */
    public Builder caCertificates(Path pem) {
      this.caCertificates = pem;
      return this;
    }

    /** Follow redirects from https to plain http (refused by default: they expose the download to the network path). */
    public Builder allowHttpsToHttpRedirects(boolean allow) {
      this.allowDowngrade = allow;
      return this;
    }

    /** The User-Agent header of every request (default {@code Braid/VERSION}). */
    public Builder userAgent(String userAgent) {
      Objects.requireNonNull(userAgent, "userAgent");
      if (userAgent.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
        // a line break would let the value smuggle in further headers
        throw new IllegalArgumentException("userAgent cannot contain a line break");
      }
      this.userAgent = userAgent;
      return this;
    }

    /**
     * Opens the store and the client.
     *
     * @throws LocalFileException when the state database cannot be opened, or the metrics
     *     endpoint's address cannot be bound (a port in use)
     */
    public Braid build() throws LocalFileException {
      return new Braid(this);
    }
  }
}
