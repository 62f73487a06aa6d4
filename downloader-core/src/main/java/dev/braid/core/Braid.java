package dev.braid.core;

import dev.braid.core.internal.engine.EngineConfig;
import dev.braid.core.internal.engine.EngineParts;
import dev.braid.core.internal.http.DefaultTls;
import dev.braid.core.internal.queue.StateCalls;
import dev.braid.core.internal.metalink.MetalinkFetch;
import dev.braid.core.internal.report.FleetReport;
import dev.braid.core.internal.report.HostReport;
import dev.braid.store.DownloadState;
import dev.braid.store.ProcessOwner;
import dev.braid.store.StoreException;
import dev.braid.store.StoreLocation;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

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
  /** {@link BraidBuilder#connectTimeout}'s default. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(15);
  /** {@link BraidBuilder#readTimeout}'s default. */
  public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(30);
  /** {@link BraidBuilder#tlsHandshakeTimeout}'s default. */
  public static final Duration DEFAULT_TLS_HANDSHAKE_TIMEOUT = Duration.ofSeconds(15);
  /** {@link BraidBuilder#firstByteTimeout}'s default. */
  public static final Duration DEFAULT_FIRST_BYTE_TIMEOUT = Duration.ofSeconds(30);
  /** {@link BraidBuilder#maxRetries}'s default. */
  public static final int DEFAULT_MAX_RETRIES = 5;
  /** {@link BraidBuilder#lowestSpeed}'s default, bytes per second. */
  public static final long DEFAULT_LOWEST_SPEED = 1024;
  /** {@link BraidBuilder#maxActiveDownloads}'s default. */
  public static final int DEFAULT_MAX_ACTIVE_DOWNLOADS = 4;
  /** The address {@link BraidBuilder#metricsEndpoint(int)} listens on: loopback only. */
  public static final String DEFAULT_METRICS_HOST = "127.0.0.1";
  /** {@link BraidBuilder#bufferSize}'s bounds: below a few KiB a read per small piece costs more than it moves. */
  public static final int MIN_BUFFER_SIZE = 4 * 1024;
  /** The largest {@link BraidBuilder#bufferSize}: each connection holds one, {@value #DEFAULT_MAX_CONNECTIONS_TOTAL} connections by default. */
  public static final int MAX_BUFFER_SIZE = 16 * 1024 * 1024;
  /** {@link BraidBuilder#hookTimeout}'s default: how long one hook may run before it is stopped. */
  public static final Duration DEFAULT_HOOK_TIMEOUT = Duration.ofSeconds(30);
  /** {@link BraidBuilder#bufferSize}'s default, bytes. */
  public static final int DEFAULT_BUFFER_SIZE = 128 * 1024;
  /** {@link BraidBuilder#maxConnectionsTotal}'s default. */
  public static final int DEFAULT_MAX_CONNECTIONS_TOTAL = 64;
  /** {@link BraidBuilder#checkpointInterval}'s default. */
  public static final Duration DEFAULT_CHECKPOINT_INTERVAL = Duration.ofMillis(500);
  /** {@link BraidBuilder#firstBackoff}'s default. */
  public static final Duration DEFAULT_FIRST_BACKOFF = Duration.ofMillis(250);
  /** {@link BraidBuilder#dnsCacheTtl}'s default. */
  public static final Duration DEFAULT_DNS_CACHE_TTL = Duration.ofSeconds(60);
  /** {@link BraidBuilder#idleConnectionTimeout}'s default. */
  public static final Duration DEFAULT_IDLE_CONNECTION_TIMEOUT = Duration.ofSeconds(30);

  /** Everything the instance runs and owns; Braid itself is the public face over it. */
  private final EngineParts parts;

  Braid(EngineConfig config) throws LocalFileException {
    this.parts = new EngineParts(config);
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
   * {@link BraidBuilder#caCertificates} or {@link BraidBuilder#insecure} uses a context of its own.
   */
  public static void warmUpTls() {
    DefaultTls.prepare();
  }

  /** {@return a builder with every setting at its default; {@link BraidBuilder#build()} makes the {@code Braid}} */
  public static BraidBuilder builder() {
    return new BraidBuilder();
  }

  /**
   * Whether {@code location} names a server database (a URL such as {@code postgresql://...})
   * rather than a file: a server database's engine files (a daemon's lock, port, secret) belong
   * to each machine, not beside it.
   *
   * @param location a state location: a file path or a store URL
   * @return true for a URL, false for a file path
   */
  public static boolean isServerLocation(String location) {
    return StoreLocation.isUrl(location);
  }

  /**
   * {@return {@code location} fit to show (a server URL without its password; a file path as it
   * is)}
   *
   * @param location a state location, or null
   */
  public static String describeStateLocation(String location) {
    return StoreLocation.redact(location);
  }

  /**
   * {@return the default state database: {@code $XDG_DATA_HOME/braid/state.db}, else
   * {@code ~/.local/share/braid/state.db}}
   */
  public static Path defaultStateDatabase() {
    String xdg = System.getenv("XDG_DATA_HOME");
    Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".local", "share");
    return base.resolve("braid").resolve("state.db");
  }

  /**
   * Adds a download to the persistent queue and returns its handle at once; it starts when a slot
   * is free (see {@link BraidBuilder#maxActiveDownloads}), higher priority first, then in submission
   * order. Submitting a request for a download the queue already holds unfinished (same URL and
   * target) continues that one. When another process drives it, the handle's result fails at
   * once with a {@link LocalFileException}.
   *
   * @param request what to download
   * @return the download's handle, new or the one it continues
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
   * @param request what to download
   * @return the download's handle, new or the one it continues
   * @throws LocalFileException when the state database cannot record it
   */
  public Download submitPaused(DownloadRequest request) throws LocalFileException {
    return submit(request, true);
  }

  /**
   * Adds a download to the queue for whichever process runs it (a {@code braid daemon}, any
   * worker sharing a server database, a later {@code Braid} with {@link BraidBuilder#runQueue}) and
   * returns its handle; this {@code Braid} never starts it, and its result does not complete
   * here. An unfinished download the queue holds for the same URL and target is queued again if it
   * was paused or failed, and returned.
   * Its headers travel with it (the store keeps them for whoever runs it); a URL refresher and a
   * proxy's credentials, kept in this process's memory only, do not.
   *
   * @param request what to download
   * @return the download's handle, new or the one it continues
   * @throws LocalFileException when the state database cannot record it
   */
  public Download enqueue(DownloadRequest request) throws LocalFileException {
    try {
      return parts.queue.enqueue(placed(request));
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
   * @param requests what to download, in order
   * @param paused whether they are added paused
   * @return a handle per request, in the same order
   * @throws LocalFileException when the state database cannot record them; those recorded before
   *     the failure stay
   */
  public List<Download> submitAll(List<DownloadRequest> requests, boolean paused) throws LocalFileException {
    List<DownloadRequest> placed = requests.stream().map(this::placed).toList();
    try {
      return parts.queue.submitAll(placed, paused);
    } catch (StoreException e) {
      throw new LocalFileException(e.getMessage(), e);
    }
  }

  private Download submit(DownloadRequest request, boolean paused) throws LocalFileException {
    try {
      return parts.queue.submit(placed(request), paused);
    } catch (StoreException e) {
      throw new LocalFileException(e.getMessage(), e);
    }
  }

  /**
   * Starts fetching {@code request}'s file to be read in order, as it arrives: over the usual
   * adaptive connections, from the file's front (as {@link DownloadRequestBuilder#sequential}),
   * through a bounded reorder window; nothing is written to disk and nothing is recorded in the
   * state database, so the stream does not resume and is not in {@link #downloads()}. Its folder,
   * file, overwrite and priority settings do not apply; its checksum and piece hashes are checked
   * on the bytes as they are read (see {@link DownloadStream}). The caller reads it on one thread
   * and closes it; {@link #close()} closes every stream still open.
   *
   * <pre>{@code
   * try (DownloadStream s = braid.stream(DownloadRequest.builder(url).build());
   *     InputStream in = s.inputStream()) {
   *   in.transferTo(out);
   * }
   * }</pre>
   *
   * @param request what to fetch
   * @return the stream, its download started
   */
  public DownloadStream stream(DownloadRequest request) {
    return parts.stream(Objects.requireNonNull(request, "request"));
  }

  /** The request in this instance's download folder unless it names a folder of its own. */
  private DownloadRequest placed(DownloadRequest request) {
    return request.directoryGiven() ? request
        : request.toBuilder().directory(parts.downloadDirectory != null ? parts.downloadDirectory : request.directory())
            .buildUnchecked();
  }

  /**
   * Fetches the Metalink document at {@code request}'s URL into memory (its headers and
   * credentials go to the URL's origin only, as for a download) and parses it; nothing is written
   * to disk. Blocks the calling thread for one request.
   *
   * @param request the document's URL, with its headers and credentials
   * @return the parsed document
   * @throws MetalinkException when the answer is no Metalink, too large or malformed
   * @throws HttpStatusException when the server answers other than 200
   * @throws NetworkException when the server cannot be reached
   */
  public Metalink fetchMetalink(DownloadRequest request) throws DownloadException {
    return MetalinkFetch.fetch(parts.http, request);
  }

  /**
   * {@return every download in the state database, oldest first, including those other processes
   * drive} While anyone holds a download's handle, every call returns that same object; Braid
   * itself keeps only the handles of downloads it still has to run.
   *
   * @throws StateStoreException when the state database cannot be read
   */
  public List<Download> downloads() {
    return StateCalls.read(parts.queue::all);
  }

  /**
   * A page of the queue: the downloads whose recorded state is in {@code states}, in
   * {@code order}, from {@code offset} on (a negative offset counts from the end, -1 being the
   * last, and the page runs backwards from there, newest first), at most {@code limit} of them.
   * Only the page is read from the state database, so a store with a long history answers as
   * fast as a short one. An entry whose process ended without recording it is listed as active
   * here until an engine takes it over; its handle shows it as queued.
   *
   * @param states the recorded states to list
   * @param order the page's order
   * @param offset downloads to skip, or a negative position counted from the end
   * @param limit the most downloads of the page
   * @return the page's downloads
   * @throws IllegalArgumentException when {@code limit} is negative
   * @throws StateStoreException when the state database cannot be read
   */
  public List<Download> downloads(java.util.Set<DownloadState> states, QueueOrder order, long offset, int limit) {
    Objects.requireNonNull(states, "states");
    Objects.requireNonNull(order, "order");
    if (limit < 0) {
      throw new IllegalArgumentException("a page holds 0 or more downloads, not " + limit);
    }
    return StateCalls.read(() -> parts.queue.page(states, order, offset, limit));
  }

  /**
   * {@return how many downloads are in each state as {@link Download#state()} shows it (states
   * without any are absent), counted from the state index without a handle per entry}
   *
   * @throws StateStoreException when the state database cannot be read
   */
  public Map<DownloadState, Long> countByState() {
    return StateCalls.read(parts.queue::countByState);
  }

  /**
   * {@return the download with this queue id, if the state database holds it}
   *
   * @param id the download's queue id ({@link Download#id()})
   * @throws StateStoreException when the state database cannot be read
   */
  public Optional<Download> download(long id) {
    return StateCalls.read(() -> parts.queue.find(id));
  }

  /**
   * {@return what the engine remembers of the hosts it downloaded from (the connections each
   * tolerated, the speed reached, what each HTTP version delivered), the most recently learned
   * first, at most {@code limit}}
   *
   * @param limit the most hosts (positive)
   * @throws IllegalArgumentException when {@code limit} is below 1
   * @throws StateStoreException when the state database cannot be read
   */
  public List<KnownHost> knownHosts(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("a list of hosts holds at least one, not " + limit);
    }
    return StateCalls.read(() -> HostReport.read(parts.store.hosts(), limit));
  }

  /**
   * {@return the workers sharing this engine's state database (this one first), the downloads each
   * drives, and the connections each holds per host} See {@link Fleet}.
   *
   * @throws StateStoreException when the state database cannot be read
   */
  public Fleet fleet() {
    return StateCalls.read(() -> FleetReport.read(parts.store, ProcessOwner.self()));
  }

  /** {@return the downloads this instance is fetching right now} */
  public List<Download> running() {
    return parts.queue.running();
  }

  /**
   * Changes the limit on all downloads together, in bytes per second (0 for none), at once; with a
   * {@link #speedSchedule(SpeedSchedule)}, until the time reaches its next entry, and wherever it has none.
   *
   * @param bytesPerSecond the new limit; 0 for none
   */
  public void rateLimit(long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("bytesPerSecond cannot be negative, not " + bytesPerSecond);
    }
    parts.schedule.rateLimit(bytesPerSecond);
  }

  /**
   * {@return the current limit on all downloads together (0: none), the speed schedule's where one
   * of its entries applies}
   */
  public long rateLimit() {
    return parts.rateLimit.rate();
  }

  /**
   * The windows in which the queue starts downloads, at once: outside all of them, running
   * downloads stop with their progress recorded and wait queued (not paused) for the next window
   * (the stopped run's {@link Download#result()} fails with a {@link DownloadPausedException}, the
   * next run has a new one); none starts. Empty (the default): always. Every download of this instance's queue is governed,
   * also one submitted here; see {@link BraidBuilder#runWindows}.
   *
   * @param windows the new windows; empty for always
   */
  public void runWindows(List<RunWindow> windows) {
    parts.schedule.windows(Objects.requireNonNull(windows, "windows"));
  }

  /** {@return the windows in which the queue runs (empty: always)} */
  public List<RunWindow> runWindows() {
    return parts.schedule.windows();
  }

  /** {@return whether the queue may start downloads now (in a run window, or there are none)} */
  public boolean inRunWindow() {
    return parts.schedule.allowsStarts();
  }

  /**
   * Limits by time of day on all downloads together, at once ({@link SpeedSchedule#NONE} for none).
   *
   * @param speeds the new schedule
   */
  public void speedSchedule(SpeedSchedule speeds) {
    parts.schedule.speeds(speeds);
  }

  /** {@return the limits by time of day} */
  public SpeedSchedule speedSchedule() {
    return parts.schedule.speeds();
  }

  /**
   * How the queue waits out outages from now on, for downloads that do not carry their own policy
   * (see {@link BraidBuilder#outageRetry}); a download waiting now keeps its next try.
   *
   * @param policy the policy
   */
  public void outageRetry(OutageRetry policy) {
    parts.queue.outageWaits().defaultPolicy(Objects.requireNonNull(policy, "policy"));
  }

  /** {@return how the queue waits out outages for downloads that do not carry their own policy} */
  public OutageRetry outageRetry() {
    return parts.queue.outageWaits().defaultPolicy();
  }

  /**
   * Changes how many downloads run at once, at once: a higher limit starts waiting ones now; a
   * lower one starts no more until the running ones are below it (none is stopped for it).
   *
   * @param n the new limit, at least 1
   */
  public void maxActiveDownloads(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("at least one download must be able to run");
    }
    parts.queue.maxActive(n);
  }

  /** {@return how many downloads run at once at most} */
  public int maxActiveDownloads() {
    return parts.queue.maxActive();
  }

  /**
   * Calls {@code listener} about every download: each state change, and progress of running ones
   * every {@code progressEvery}, on Braid's event thread.
   *
   * @param listener what to call
   * @param progressEvery how often it hears a running download's progress
   * @return the registration, to {@linkplain Registration#close() close} when it should hear no
   *     more
   */
  public Registration listen(DownloadListener listener, Duration progressEvery) {
    return parts.queue.listen(listener, progressEvery);
  }

  /**
   * {@return where the Prometheus endpoint listens ({@code GET /metrics}), if
   * {@link BraidBuilder#metricsEndpoint} turned it on; the real port when 0 was asked for}
   */
  public Optional<InetSocketAddress> metricsAddress() {
    return parts.metricsEndpoint == null ? Optional.empty() : Optional.of(parts.metricsEndpoint.address());
  }

  /**
   * {@return settings stored in the state database (an application's preferences), by key}
   *
   * @throws StateStoreException when the state database cannot be read
   */
  public Map<String, String> settings() {
    return StateCalls.read(parts.store::settings);
  }

  /**
   * Stores a setting in the state database; null removes it.
   *
   * @param key the setting's name
   * @param value its new value, or null to remove it
   * @throws StateStoreException when the state database cannot be written (held by another process past the busy timeout)
   */
  public void saveSetting(String key, String value) {
    StateCalls.run(() -> parts.store.saveSetting(key, value));
  }

  /**
   * Pauses running downloads, waits (bounded) until their progress is recorded, lets the hooks of
   * the downloads that ended finish (for up to {@link BraidBuilder#hookTimeout}, then stops them), and
   * releases the client, threads and store. The paused downloads stay queued: a {@code Braid} that runs the
   * queue on the same database continues them.
   */
  @Override
  public void close() {
    parts.close();
  }
}
