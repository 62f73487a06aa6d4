package dev.braid.core;

import dev.braid.core.internal.engine.EngineConfig;
import dev.braid.core.internal.http.ProxyPlan;
import dev.braid.core.internal.metrics.PrometheusClient;
import dev.braid.core.rules.Rules;
import dev.braid.core.time.Ticker;
import dev.braid.store.StateStore;
import dev.braid.store.StoreLocation;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Configures a {@link Braid}; made by {@link Braid#builder()}, as in
 * {@code Braid.builder().downloadDirectory(dir).maxActiveDownloads(8).build()}. Every setting has a
 * default suited to an interactive download.
 * Each setter checks its argument at once: an {@link IllegalArgumentException} or a
 * {@link NullPointerException} naming the parameter, never a failure later in {@link #build()}
 * or a download that cannot move.
 */
public final class BraidBuilder {
  /** The settings as the engine reads them when {@link #build()} makes the Braid. */
  private final EngineConfig config = new EngineConfig();

  /** Every setting at its default: each default is one constant ({@code Braid.DEFAULT_*} and the like), set here. */
  BraidBuilder() {
    config.stateLocation = Braid.defaultStateDatabase().toString();
    config.connectTimeout = Braid.DEFAULT_CONNECT_TIMEOUT;
    config.readTimeout = Braid.DEFAULT_READ_TIMEOUT;
    config.maxRetries = Braid.DEFAULT_MAX_RETRIES;
    config.maxRedirects = 10;
    config.bufferSize = Braid.DEFAULT_BUFFER_SIZE;
    config.checkpointInterval = Braid.DEFAULT_CHECKPOINT_INTERVAL;
    config.firstBackoff = Braid.DEFAULT_FIRST_BACKOFF;
    config.userAgent = "Braid/" + Version.get();
    config.maxConnectionsTotal = Braid.DEFAULT_MAX_CONNECTIONS_TOTAL;
    config.lowestSpeed = Braid.DEFAULT_LOWEST_SPEED;
    config.maxActiveDownloads = Braid.DEFAULT_MAX_ACTIVE_DOWNLOADS;
    config.maxConnectionsPerHost = DownloadRequest.MAX_CONNECTIONS;
    config.tlsHandshakeTimeout = Braid.DEFAULT_TLS_HANDSHAKE_TIMEOUT;
    config.firstByteTimeout = Braid.DEFAULT_FIRST_BYTE_TIMEOUT;
    config.hostResolver = HostResolver.SYSTEM;
    config.dnsCacheTtl = Braid.DEFAULT_DNS_CACHE_TTL;
    config.idleConnectionTimeout = Braid.DEFAULT_IDLE_CONNECTION_TIMEOUT;
    config.proxies = ProxyPlan.DIRECT;
    config.hostRules = Rules.NONE;
    config.httpVersion = HttpVersion.HTTP_1_1;
    config.hookTimeout = Braid.DEFAULT_HOOK_TIMEOUT;
    config.ticker = Ticker.SYSTEM;
    config.hookFailures = f -> System.err.println("braid: " + f);
    config.outageRetry = OutageRetry.NONE;
  }

  /**
   * How the queue waits out outages for downloads that do not carry their own policy
   * ({@link DownloadRequestBuilder#outageRetry}); default {@link OutageRetry#NONE}: a passing
   * failure fails the download at once, as a caller that retries itself expects. A daemon and the
   * desktop app use {@link OutageRetry#DEFAULT}. Changed live with {@link Braid#outageRetry(OutageRetry)}.
   *
   * @param policy the policy
   * @return this builder
   */
  public BraidBuilder outageRetry(OutageRetry policy) {
    config.outageRetry = Objects.requireNonNull(policy, "policy");
    return this;
  }

  /**
   * The wall clock the engine reads where a time of day or a date decides (default: the system's,
   * in the default time zone): the schedules' windows, when an outage is tried again, the age of
   * what is remembered of each host. A test gives one it moves. Elapsed time reads
   * {@link #ticker} instead.
   *
   * @param clock the clock to read
   * @return this builder
   */
  public BraidBuilder clock(Clock clock) {
    config.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /**
   * The monotonic time the engine measures with (default {@link Ticker#SYSTEM}): the age of DNS
   * answers, backoff between tries, slow-connection windows, deadlines, speeds, rate limits and the
   * queue's heartbeats. A test gives one it moves by hand instead of sleeping. Wall-clock times
   * (run windows, outage retry times, host memory) read {@link #clock} instead.
   *
   * @param ticker a thread-safe ticker that never goes backwards
   * @return this builder
   */
  public BraidBuilder ticker(Ticker ticker) {
    config.ticker = Objects.requireNonNull(ticker, "ticker");
    return this;
  }

  /**
   * The windows in which the queue starts and runs downloads (default: none, always); see
   * {@link Braid#runWindows(List)}. A front end that runs one download in the foreground at a
   * user's request ({@code braid get}) leaves them unset.
   *
   * @param windows the windows; empty for always
   * @return this builder
   */
  public BraidBuilder runWindows(List<RunWindow> windows) {
    Objects.requireNonNull(windows, "windows");
    windows.forEach(w -> Objects.requireNonNull(w, "windows holds a null"));
    config.runWindows = List.copyOf(windows);
    return this;
  }

  /**
   * Where {@link #runWindows} or {@link #speedSchedule} is not set, use the one stored in the
   * state database under {@link RunWindow#SETTING} or {@link SpeedSchedule#SETTING} (the queue's
   * own schedule, shared by the daemon and the desktop app); off by default. A stored value that
   * does not parse counts as none.
   *
   * @param use whether to read the stored schedule
   * @return this builder
   */
  public BraidBuilder storedSchedule(boolean use) {
    config.storedSchedule = use;
    return this;
  }

  /**
   * Limits by time of day on all downloads together (default {@link SpeedSchedule#NONE}); see
   * {@link SpeedSchedule}.
   *
   * @param speeds the schedule
   * @return this builder
   */
  public BraidBuilder speedSchedule(SpeedSchedule speeds) {
    config.speedSchedule = Objects.requireNonNull(speeds, "speeds");
    return this;
  }

  /**
   * Also run {@code hook} when a download this instance runs completes (the file is whole,
   * verified and renamed). Hooks run on threads of their own, at most {@link #hookTimeout} each;
   * one that fails is reported to {@link #hookFailures} and changes nothing about the download.
   *
   * @param hook what to run
   * @return this builder
   */
  public BraidBuilder onDownloadComplete(DownloadHook hook) {
    config.onComplete.add(Objects.requireNonNull(hook, "hook"));
    return this;
  }

  /**
   * Also run {@code hook} when a download this instance runs fails (not when it is paused or
   * removed); as {@link #onDownloadComplete}.
   *
   * @param hook what to run
   * @return this builder
   */
  public BraidBuilder onDownloadError(DownloadHook hook) {
    config.onError.add(Objects.requireNonNull(hook, "hook"));
    return this;
  }

  /**
   * How long one hook may run (default {@link Braid#DEFAULT_HOOK_TIMEOUT}); then it is stopped (a
   * command killed with every process it started).
   *
   * @param timeout a positive duration
   * @return this builder
   */
  public BraidBuilder hookTimeout(Duration timeout) {
    config.hookTimeout = positive(timeout, "timeout");
    return this;
  }

  /**
   * Where hooks that fail, time out or cannot run are reported, on a hook thread (default: a line
   * on standard error).
   *
   * @param listener what hears of each failed hook
   * @return this builder
   */
  public BraidBuilder hookFailures(Consumer<HookFailure> listener) {
    config.hookFailures = Objects.requireNonNull(listener, "listener");
    return this;
  }

  /**
   * The HTTP version for https servers (default {@link HttpVersion#HTTP_1_1}, several
   * connections per download); {@link HttpVersion#HTTP_2} sends the ranges as streams of one
   * connection and fails where the server does not offer HTTP/2; {@link HttpVersion#AUTO}
   * chooses per host by measured throughput.
   *
   * @param version the version, or {@link HttpVersion#AUTO}
   * @return this builder
   */
  public BraidBuilder httpVersion(HttpVersion version) {
    config.httpVersion = Objects.requireNonNull(version, "version");
    return this;
  }

  /**
   * Serve Prometheus metrics on {@code 127.0.0.1:port} (0: any free port, see
   * {@link Braid#metricsAddress()}): bytes, downloads by state, open connections, requests,
   * retries, connection reuse, TLS resumption, and DNS, connect, TLS and first-byte times as
   * histograms. Off by default.
   *
   * @param port the loopback port, 0-65535
   * @return this builder
   */
  public BraidBuilder metricsEndpoint(int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be 0-65535, not " + port);
    }
    return metricsEndpoint(new InetSocketAddress(Braid.DEFAULT_METRICS_HOST, port));
  }

  /**
   * Serve Prometheus metrics on exactly this address; another than loopback exposes them to the
   * network (they name no URL or credential, but show what this machine downloads and how fast).
   * Null turns the endpoint off. Needs the Prometheus client on the class path
   * ({@code io.prometheus:prometheus-metrics-exporter-httpserver}, an optional dependency of
   * braid-core), else throws {@link IllegalStateException}.
   *
   * @param address a resolved address, or null for none
   * @return this builder
   */
  public BraidBuilder metricsEndpoint(InetSocketAddress address) {
    if (address != null && (address.isUnresolved() || address.getPort() < 0 || address.getPort() > 65535)) {
      throw new IllegalArgumentException("address must be resolved, with a port 0-65535: " + address);
    }
    if (address != null && !PrometheusClient.present()) {
      throw new IllegalStateException(PrometheusClient.MISSING);
    }
    config.metricsAddress = address;
    return this;
  }

  /**
   * Limit on the TLS handshake of a new https connection (each handshake message must arrive
   * within it; default {@link Braid#DEFAULT_TLS_HANDSHAKE_TIMEOUT}).
   *
   * @param timeout a positive duration
   * @return this builder
   */
  public BraidBuilder tlsHandshakeTimeout(Duration timeout) {
    config.tlsHandshakeTimeout = positive(timeout, "timeout");
    return this;
  }

  /**
   * Limit on the wait for a response once a request is sent (default
   * {@link Braid#DEFAULT_FIRST_BYTE_TIMEOUT}); then the range is retried.
   *
   * @param timeout a positive duration
   * @return this builder
   */
  public BraidBuilder firstByteTimeout(Duration timeout) {
    config.firstByteTimeout = positive(timeout, "timeout");
    return this;
  }

  /**
   * The longest a download may take from start to finish (default: none). Past it the download
   * stops with a {@link NetworkException}; its bytes are kept and a new start resumes them.
   * Null for none.
   *
   * @param deadline a positive duration, or null for none
   * @return this builder
   */
  public BraidBuilder deadline(Duration deadline) {
    config.deadline = deadline == null ? null : positive(deadline, "deadline");
    return this;
  }

  /**
   * Accept any server certificate for any host name. Off by default; only for a server whose
   * certificate cannot be trusted any other way ({@link #caCertificates} is the safe choice).
   *
   * @param insecure whether to accept any certificate
   * @return this builder
   */
  public BraidBuilder insecure(boolean insecure) {
    config.insecure = insecure;
    return this;
  }

  /**
   * Where host names are resolved (default: the JVM); answers are cached for {@link #dnsCacheTtl}.
   *
   * @param resolver what resolves host names
   * @return this builder
   */
  public BraidBuilder hostResolver(HostResolver resolver) {
    config.hostResolver = Objects.requireNonNull(resolver, "resolver");
    return this;
  }

  /**
   * How long a DNS answer is reused by every connection and download of this instance (default
   * {@link Braid#DEFAULT_DNS_CACHE_TTL}).
   *
   * @param ttl a positive duration
   * @return this builder
   */
  public BraidBuilder dnsCacheTtl(Duration ttl) {
    config.dnsCacheTtl = positive(ttl, "ttl");
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
   * @param url the proxy's URL, or null to connect directly
   * @param noProxy the hosts reached directly, or null for none
   * @return this builder
   * @throws IllegalArgumentException for a URL that names no usable proxy
   */
  public BraidBuilder proxy(String url, String noProxy) {
    config.proxies = url == null ? ProxyPlan.DIRECT : ProxyPlan.of(url, noProxy);
    return this;
  }

  /**
   * The engine's part of a user's per-host rules: each rule's proxy (before {@link #proxy} and the
   * environment's, for its hosts) and {@code max-connections-per-host} (instead of
   * {@link #maxConnectionsPerHost}, for its hosts). The per-download settings of the rules are the
   * request's ({@link dev.braid.core.rules.HostSettings#applyTo}). Default: {@link Rules#NONE}.
   *
   * @param rules the rules
   * @return this builder
   */
  public BraidBuilder hostRules(Rules rules) {
    config.hostRules = Objects.requireNonNull(rules, "rules");
    return this;
  }

  /**
   * Take the proxy from {@code http_proxy}, {@code https_proxy} and {@code no_proxy} (lower or
   * upper case), {@code all_proxy} for a scheme without its own, in {@code environment}, e.g.
   * {@code System.getenv()}. Their URLs may hold credentials, as in {@link #proxy}.
   *
   * @param environment the variables, by name
   * @return this builder
   * @throws IllegalArgumentException for a variable that names no usable proxy
   */
  public BraidBuilder proxyFromEnvironment(java.util.Map<String, String> environment) {
    Objects.requireNonNull(environment, "environment");
    config.proxies = ProxyPlan.fromEnvironment(environment);
    return this;
  }

  private static Duration positive(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, not " + d);
    }
    return d;
  }

  /**
   * The folder for downloads whose request names neither a file nor a folder; null for the working
   * directory (the default).
   *
   * @param folder the folder, or null for the working directory
   * @return this builder
   */
  public BraidBuilder downloadDirectory(Path folder) {
    config.downloadDirectory = folder == null ? null : folder.toAbsolutePath().normalize();
    return this;
  }

  /**
   * How many downloads run at once (default {@value Braid#DEFAULT_MAX_ACTIVE_DOWNLOADS}); the
   * others wait in the queue.
   *
   * @param n at least 1
   * @return this builder
   */
  public BraidBuilder maxActiveDownloads(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be at least 1 (one download must be able to run), not " + n);
    }
    config.maxActiveDownloads = n;
    return this;
  }

  /**
   * The most connections open to one host ({@code host:port}) across all downloads (default
   * {@value DownloadRequest#MAX_CONNECTIONS}).
   *
   * @param n at least 1
   * @return this builder
   */
  public BraidBuilder maxConnectionsPerHost(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be positive, not " + n);
    }
    config.maxConnectionsPerHost = n;
    return this;
  }

  /**
   * A limit on all downloads together, in bytes per second (default 0: none); changeable later.
   *
   * @param bytesPerSecond the limit; 0 for none
   * @return this builder
   */
  public BraidBuilder rateLimit(long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("bytesPerSecond cannot be negative, not " + bytesPerSecond);
    }
    config.rateLimit = bytesPerSecond;
    return this;
  }

  /**
   * Whether this instance also runs what the database already holds queued, including downloads
   * a crashed process left behind (default false: it runs only what is submitted to it). A
   * desktop app or a batch job that must carry on after a crash turns this on.
   *
   * @param run whether to run what the database holds queued
   * @return this builder
   */
  public BraidBuilder runQueue(boolean run) {
    config.runQueue = run;
    return this;
  }

  /**
   * Where downloads and their progress are recorded (created if absent): a SQLite database file.
   *
   * @param file the SQLite database file
   * @return this builder
   */
  public BraidBuilder stateDatabase(Path file) {
    config.stateLocation = Objects.requireNonNull(file, "file").toString();
    config.store = null;
    return this;
  }

  /**
   * Where downloads and their progress are recorded: a file path (SQLite, as
   * {@link #stateDatabase}), or a URL that a store module on the class path opens (such as
   * {@code postgresql://host:port/db?user=...}). Its password is never shown in a message.
   *
   * @param location a file path or a store URL
   * @return this builder
   * @throws IllegalArgumentException for an empty location, or one no store on the class path opens
   */
  public BraidBuilder stateLocation(String location) {
    StoreLocation.check(Objects.requireNonNull(location, "location"));
    config.stateLocation = location;
    config.store = null;
    return this;
  }

  /**
   * Records downloads in this store, already open (a library's own, or one shared by several
   * instances), instead of opening one. {@link Braid#close()} leaves it open: whoever opened
   * it closes it, after every {@code Braid} using it.
   *
   * @param store an open store
   * @return this builder
   */
  public BraidBuilder store(StateStore store) {
    config.store = Objects.requireNonNull(store, "store");
    return this;
  }

  /**
   * Limit on establishing a TCP connection (default {@link Braid#DEFAULT_CONNECT_TIMEOUT}).
   *
   * @param timeout a positive duration
   * @return this builder
   */
  public BraidBuilder connectTimeout(Duration timeout) {
    config.connectTimeout = positive(timeout, "timeout");
    return this;
  }

  /**
   * A connection silent for this long is dropped and its range retried elsewhere (default
   * {@link Braid#DEFAULT_READ_TIMEOUT}).
   *
   * @param timeout a positive duration
   * @return this builder
   */
  public BraidBuilder readTimeout(Duration timeout) {
    config.readTimeout = positive(timeout, "timeout");
    return this;
  }

  /**
   * A kept-alive connection unused for this long is closed (default
   * {@link Braid#DEFAULT_IDLE_CONNECTION_TIMEOUT}), so a long-lived
   * instance holds no sockets the servers have long given up on.
   *
   * @param timeout a positive duration
   * @return this builder
   */
  public BraidBuilder idleConnectionTimeout(Duration timeout) {
    config.idleConnectionTimeout = positive(timeout, "timeout");
    return this;
  }

  /**
   * Failed tries in a row, without progress, before a range (and then the download) gives up
   * (default {@value Braid#DEFAULT_MAX_RETRIES}; 0: no retry).
   *
   * @param n 0 or more
   * @return this builder
   */
  public BraidBuilder maxRetries(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("n cannot be negative, not " + n);
    }
    config.maxRetries = n;
    return this;
  }

  /**
   * The wait after the first failure (default {@link Braid#DEFAULT_FIRST_BACKOFF}); it doubles with
   * each further one, with jitter.
   *
   * @param wait a positive duration
   * @return this builder
   */
  public BraidBuilder firstBackoff(Duration wait) {
    config.firstBackoff = positive(wait, "wait");
    return this;
  }

  /**
   * How often progress is forced to disk and recorded (default
   * {@link Braid#DEFAULT_CHECKPOINT_INTERVAL}): a crash loses at most
   * this much of the download's throughput. Forcing more often costs little: every byte is
   * flushed once whatever the interval.
   *
   * @param interval a positive duration
   * @return this builder
   */
  public BraidBuilder checkpointInterval(Duration interval) {
    config.checkpointInterval = positive(interval, "interval");
    return this;
  }

  /**
   * Bytes of the one buffer each connection reads into (default {@value Braid#DEFAULT_BUFFER_SIZE}), from
   * {@value Braid#MIN_BUFFER_SIZE} to {@value Braid#MAX_BUFFER_SIZE}.
   *
   * @param bytes the buffer's size, within the bounds
   * @return this builder
   */
  public BraidBuilder bufferSize(int bytes) {
    if (bytes < Braid.MIN_BUFFER_SIZE || bytes > Braid.MAX_BUFFER_SIZE) {
      throw new IllegalArgumentException("bytes must be between " + Braid.MIN_BUFFER_SIZE + " and " + Braid.MAX_BUFFER_SIZE + ", not " + bytes);
    }
    config.bufferSize = bytes;
    return this;
  }

  /**
   * The most connections open at once across all downloads of this instance (default
   * {@value Braid#DEFAULT_MAX_CONNECTIONS_TOTAL}).
   *
   * @param n at least 1
   * @return this builder
   */
  public BraidBuilder maxConnectionsTotal(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be positive, not " + n);
    }
    config.maxConnectionsTotal = n;
    return this;
  }

  /**
   * A connection slower than this (bytes per second) for 3 seconds is replaced by a fresh one that
   * continues from the same byte (default {@value Braid#DEFAULT_LOWEST_SPEED}; 0 leaves only stalls and the comparison with
   * the download's other connections).
   *
   * @param bytesPerSecond the least acceptable speed; 0 for none
   * @return this builder
   */
  public BraidBuilder lowestSpeed(long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("bytesPerSecond cannot be negative, not " + bytesPerSecond);
    }
    config.lowestSpeed = bytesPerSecond;
    return this;
  }

  /**
   * Trust the CA certificates in this PEM file too (a private CA), besides the JDK's; null for none
   * (the default).
   *
   * @param pem a PEM file of CA certificates, or null for none
   * @return this builder
   */
  public BraidBuilder caCertificates(Path pem) {
    config.caCertificates = pem;
    return this;
  }

  /**
   * Follow redirects from https to plain http (refused by default: they expose the download to the
   * network path).
   *
   * @param allow whether to follow them
   * @return this builder
   */
  public BraidBuilder allowHttpsToHttpRedirects(boolean allow) {
    config.allowDowngrade = allow;
    return this;
  }

  /**
   * The User-Agent header of every request (default {@code Braid/VERSION}).
   *
   * @param userAgent the header's value, without a line break
   * @return this builder
   */
  public BraidBuilder userAgent(String userAgent) {
    Objects.requireNonNull(userAgent, "userAgent");
    if (userAgent.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
      // a line break would let the value smuggle in further headers
      throw new IllegalArgumentException("userAgent cannot contain a line break");
    }
    config.userAgent = userAgent;
    return this;
  }

  /**
   * Opens the store and the client.
   *
   * @return the new {@code Braid}, ready to take downloads
   * @throws LocalFileException when the state database cannot be opened, or the metrics
   *     endpoint's address cannot be bound (a port in use)
   */
  public Braid build() throws LocalFileException {
    return new Braid(config);
  }
}
