package dev.braid.core.schedule;

import dev.braid.core.ConnectionChange;
import dev.braid.core.DownloadNote;
import dev.braid.core.DownloadException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadResult;
import dev.braid.core.HttpStatusException;
import dev.braid.core.IntegrityException;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.LocalFileException;
import dev.braid.core.NetworkException;
import dev.braid.core.Progress;
import dev.braid.core.RemoteChangedException;
import dev.braid.core.TransferMetrics;
import dev.braid.core.fetch.RangesRefused;
import dev.braid.core.fetch.RemoteChanged;
import dev.braid.core.http.ConnectionWarmup;
import dev.braid.core.http.HttpTransport;
import dev.braid.core.limit.Throttle;
import dev.braid.core.limit.TokenBucket;
import dev.braid.core.http.OriginHeaders;
import dev.braid.core.http.PhaseListener;
import dev.braid.core.http.PhaseRecorder;
import dev.braid.core.http.Protocol;
import dev.braid.core.metrics.SpeedMeter;
import dev.braid.core.plan.SegmentTable;
import dev.braid.store.HostMemory;
import dev.braid.store.RemoteIdentity;
import dev.braid.store.ResumeRecords;
import dev.braid.store.StateStore;
import dev.braid.store.StoreException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.LongAdder;

/**
 * One download from request to result. {@link #run()} is its driver: it runs on a thread of its
 * own, owns the workers it starts, and returns only after all of them have stopped, so nothing of
 * the download outlives the completion of {@link #result()}. When the remote file changes
 * mid-way, it starts over from zero (at most {@value #MAX_RESTARTS} times) unless the request
 * forbids it.
 */
public final class DownloadJob implements Runnable {
  static final int MAX_RESTARTS = 3;
  private static final Set<String> ENGINE_HEADERS = Set.of("accept-encoding", "range", "if-range");

  private final ProtocolRoute route;
  private final StateStore store;
  private final EngineSettings settings;
  /** Replaced by {@link #changeUrl} (a refreshed link); each pass reads it once, when it starts. */
  private volatile DownloadRequest request;
  private final Executor workers;
  private final ConnectionBudget budget;
  private final TokenBucket rateLimit;
  private final Throttle throttle;
  private final List<ConnectionChange> changes = new CopyOnWriteArrayList<>();
  private final List<DownloadNote> notes = new CopyOnWriteArrayList<>();
  private final CompletableFuture<DownloadResult> result = new CompletableFuture<>();
  private final SpeedMeter meter = new SpeedMeter(5_000);
  private final LongAdder fetched = new LongAdder();
  private final PhaseRecorder recorder;
  private volatile OriginHeaders originHeaders;
  /** Asks the request's refresher when the link expires; null without one. Driver thread only. */
  private final LinkRefresh refresh;
  private final long startNanos = System.nanoTime();

  private volatile boolean pauseRequested;
  private volatile Attempt current;
  private volatile String lastRestartReason;
  private int restarts;
  private volatile long damaged;
  private int changesSeen;
  /** Passes ended because the server answered a range with the whole, unchanged file. */
  private int refusals;
  /** The host memory this pass read ({@link #hostMemory}), and its key; null before the pass reads it. Driver thread only. */
  private String hostMemoryKey;
  private Optional<HostMemory> hostMemoryRead;

  /**
   * @param workers runs the worker loops, one thread per open connection
   * @param budget the {@code Braid}-wide connection budget; each worker holds a permit while it runs
   * @param globalRate the {@code Braid}-wide rate limit, which this download's own limit is nested in
   * @param phases hears this download's connection phases too (the {@code Braid}-wide metrics)
   */
  public DownloadJob(HttpTransport http, StateStore store, EngineSettings settings, DownloadRequest request, Executor workers,
      ConnectionBudget budget, TokenBucket globalRate, PhaseListener phases) {
    this.route = new ProtocolRoute(http, store.hosts(), settings.httpVersion());
    this.store = store;
    this.settings = settings;
    this.request = request;
    this.workers = workers;
    this.budget = budget;
    this.rateLimit = new TokenBucket(request.rateLimit());
    this.throttle = new Throttle(rateLimit, globalRate);
    this.originHeaders = OriginHeaders.of(request.uri(), withoutEngineHeaders(request.headers()));
    this.refresh = request.urlRefresher()
        .map(r -> new LinkRefresh(r, request.maxUrlRefreshes(), request.urlRefreshTimeout())).orElse(null);
    this.recorder = new PhaseRecorder(phases);
  }

  /**
   * The user's headers less those the engine decides: Accept-Encoding (a download is of one
   * representation, the identity one; a browser's "Copy as cURL" sends {@code gzip}, which would
   * turn ranges into slices of a compressed body) and the Range and If-Range of its requests.
   */
  private static Map<String, String> withoutEngineHeaders(Map<String, String> headers) {
    Map<String, String> kept = new LinkedHashMap<>(headers);
    kept.keySet().removeIf(name -> ENGINE_HEADERS.contains(name.toLowerCase(Locale.ROOT)));
    return kept;
  }

  @Override
  public void run() {
    try {
      result.complete(execute());
    } catch (DownloadException e) {
      result.completeExceptionally(e);
    } catch (StoreException e) {
      result.completeExceptionally(new LocalFileException(e.getMessage(), e));
    } catch (RuntimeException | Error e) {
      result.completeExceptionally(e);
    }
  }

  private DownloadResult execute() throws DownloadException {
    while (true) {
      DownloadRequest asked = request;
      Attempt attempt = new Attempt(this);
      long fetchedBefore = fetched.sum();
      current = attempt;
      if (pauseRequested) {
        attempt.halt(null);
      }
      if (request != asked) {
        // changeUrl came between: it halted the pass before this one, so this one stops for it
        attempt.halt(new LinkChanged("moved to " + request.uri()));
      }
      try {
        return attempt.run();
      } catch (LinkChanged e) {
        // the next pass probes the new URL
      } catch (HttpStatusException e) {
        if (request == asked && !refreshed(e, fetched.sum() > fetchedBefore || attempt.resuming())) {
          throw e;
        }
      } catch (RangesRefused e) {
        // not a change: the next pass resumes, or streams the file whole if ranges are gone for good
        if (++refusals > MAX_RESTARTS) {
          throw new IntegrityException("the server kept answering ranges with the whole file (" + refusals
              + " passes); gave up", e);
        }
      } catch (RemoteChanged e) {
        if (!request.restartIfChanged()) {
          throw new RemoteChangedException(e.getMessage() + "; the bytes on disk are kept (allow a restart to download it again)", e);
        }
        // the next pass probes again and starts over if the new answer differs from the record
        if (++changesSeen > MAX_RESTARTS) {
          throw new RemoteChangedException("the remote file changed " + changesSeen + " times while it was downloaded"
              + " (the last time: " + e.getMessage() + "); gave up", e);
        }
      }
    }
  }

  /**
   * An expired link: a pass that was getting bytes, or that continues bytes on disk, ended with
   * 401, 403, 404 or 410 (a fresh download refused at once is a wrong URL, not an expired one). Asks the
   * request's refresher for a new URL and, with one, moves the download to it (the next pass
   * proves it serves the same file). Returns false, with the refresher's failure in the error,
   * when the download fails as it would have without one.
   */
  private boolean refreshed(HttpStatusException e, boolean wasWorking) throws HttpStatusException {
    if (refresh == null || !wasWorking || !LinkRefresh.EXPIRED.contains(e.status())) {
      return false;
    }
    LinkRefresh.Answer a = refresh.ask(request.uri(), e.status());
    if (a.uri() == null) {
      note(a.why());
      throw new HttpStatusException(e.status(), e.getMessage() + "; " + a.why());
    }
    try {
      moveTo(a.uri());
    } catch (InvalidRequestException bad) {
      throw new HttpStatusException(e.status(), e.getMessage() + "; the URL refresher gave an unusable URL: "
          + bad.getMessage());
    }
    note("the link answered HTTP " + e.status() + "; continuing from the refreshed URL " + a.uri());
    return true;
  }

  /**
   * Moves this download to {@code uri}, a new link for the same file (a new signed URL, say): the
   * pass running now stops with its bytes recorded, and the next probes {@code uri} and continues
   * only where it proves to serve the file on disk (same length and strong validator, or the same
   * bytes in a sample of finished blocks); otherwise the download fails with
   * {@link dev.braid.core.LinkRefusedException} and nothing is spliced. Any thread.
   */
  public void changeUrl(URI uri) throws InvalidRequestException {
    moveTo(uri);
    Attempt a = current;
    if (a != null) {
      a.halt(new LinkChanged("moved to " + uri));
    }
  }

  private synchronized void moveTo(URI uri) throws InvalidRequestException {
    DownloadRequest now = request;
    Attempt a = current;
    Path file = a == null || a.target() == null ? now.file().orElse(null) : a.target();
    DownloadRequest moved = now.withUri(uri);
    if (file != null) {
      // the old URL may have named the file; the new one must continue the same
      moved = moved.toBuilder().file(file).build();
    }
    originHeaders = OriginHeaders.of(moved.uri(), withoutEngineHeaders(moved.headers()));
    request = moved;
  }

  /** The URL this download fetches from now: the request's, or the one it moved to. */
  public URI currentUri() {
    return request.uri();
  }

  public CompletableFuture<DownloadResult> result() {
    return result;
  }

  /** The connection phases and reuse so far. */
  public TransferMetrics metrics() {
    return recorder.snapshot(fetched.sum());
  }

  /** Whether the overall deadline of the download has passed (never, without one). */
  boolean deadlinePassed() {
    Duration d = settings.deadline();
    return d != null && elapsed().compareTo(d) > 0;
  }

  /** The error a download past its deadline ends with; its bytes stay on disk for a resume. */
  NetworkException deadlineError() {
    return new NetworkException("the download did not finish within its deadline of " + settings.deadline().toMillis() / 1000.0
        + " s; run again to resume");
  }

  /** Fails when the deadline has passed. */
  void checkDeadline() throws NetworkException {
    if (deadlinePassed()) {
      throw deadlineError();
    }
  }

  PhaseRecorder recorder() {
    return recorder;
  }

  OriginHeaders originHeaders() {
    return originHeaders;
  }

  /** Asks the download to stop and record its progress; {@link #result()} then fails with a pause. */
  public void pause() {
    pauseRequested = true;
    Attempt a = current;
    if (a != null) {
      a.halt(null);
    }
  }

  public Progress progress() {
    Attempt a = current;
    SegmentTable t = a == null ? null : a.table();
    if (t == null) {
      return new Progress(-1, 0, 0, 0, elapsed(), List.of());
    }
    return new Progress(a.identity().length(), t.doneBytes(), meter.bytesPerSecond(), a.connections(), elapsed(), t.view());
  }

  /** The final file, once the current pass chose it. */
  public Optional<Path> target() {
    Attempt a = current;
    return Optional.ofNullable(a == null ? null : a.target());
  }

  /** What the server said in the current pass, once it answered. */
  public Optional<RemoteIdentity> remote() {
    Attempt a = current;
    return Optional.ofNullable(a == null ? null : a.identity());
  }

  /** Every change of the connection count so far, oldest first. */
  public List<ConnectionChange> connectionChanges() {
    return List.copyOf(changes);
  }

  void noteChange(ConnectionChange c) {
    changes.add(c);
  }

  /** Every note of this run so far, oldest first: events that change no connection count. */
  public List<DownloadNote> notes() {
    return List.copyOf(notes);
  }

  /**
   * Notes an event of the download's course that changes no count (a mirror left out, a URL that
   * failed, a server quirk worked around, a protocol trial stopped), which {@code --debug} prints.
   */
  void note(String what) {
    notes.add(new DownloadNote(elapsed(), what));
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
        noteChange(new ConnectionChange(elapsed(), 0, n, "start: pinned" + over));
      }
      return new ConnectionController(n, n, true, now);
    }
    Optional<HostMemory> memory = hostMemory(memoryKey(id));
    long rtt = roundTripNanos();
    HostPolicy policy = HostPolicy.of(memory, request.maxConnections(), System.currentTimeMillis(), rtt);
    noteChange(new ConnectionChange(elapsed(), 0, policy.start(), policy.why() + over));
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
    HostPolicy policy = HostPolicy.of(hostMemory(host), request.maxConnections(), System.currentTimeMillis(), 0);
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
    return hostOf(id) + (route.protocolFor(URI.create(id.finalUrl())) == Protocol.HTTP_2 ? " h2" : "");
  }

  /**
   * The host memory under {@code key}, read once per pass: the warm-up before the probe and the
   * controller after it ask for the same host (in a batch, twice per file). Driver thread only.
   */
  private Optional<HostMemory> hostMemory(String key) {
    if (!key.equals(hostMemoryKey)) {
      hostMemoryRead = store.hosts().host(key);
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
      if (!c.learned() && (pool.peakWorkers() < 2 || store.hosts().host(key).isPresent())) {
        return;
      }
      // unmeasured, the count that ran, not the target: the plan may have had pieces for fewer
      // (16 MiB on an 80 ms path: 15 of 16), and the next download warms that many
      int connections = c.learned() ? c.target() : pool.peakWorkers();
      store.hosts().remember(new HostMemory(key, c.serverLimited() ? c.limit() : 0, Math.max(1, connections),
          meter.peakBytesPerSecond(), System.currentTimeMillis()));
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

  ConnectionBudget budget() {
    return budget;
  }

  Throttle throttle() {
    return throttle;
  }

  /** Changes this download's own rate limit while it runs (0 = none). */
  public void rateLimit(long bytesPerSecond) {
    rateLimit.setRate(bytesPerSecond);
  }

  /** Why the last restart from zero happened, or null. */
  public String lastRestartReason() {
    return lastRestartReason;
  }

  /** Bytes on disk that failed their block check at resume and are fetched again. */
  public long damagedBytes() {
    return damaged;
  }

  void noteDamaged(long bytes) {
    damaged += bytes;
  }

  /** A pass found the stored bytes unusable and starts from zero. */
  void noteRestart(String reason) {
    restarts++;
    lastRestartReason = reason;
  }

  int restarts() {
    return restarts;
  }

  Duration elapsed() {
    return Duration.ofNanos(System.nanoTime() - startNanos);
  }

  boolean pauseRequested() {
    return pauseRequested;
  }

  /** Sends this download's requests over its HTTP version. */
  ProtocolRoute route() {
    return route;
  }

  /** The resume records of the store this download records its progress in. */
  ResumeRecords records() {
    return store.records();
  }

  /** Where that store is, for messages (never with a password). */
  String storeLocation() {
    return store.location();
  }

  EngineSettings settings() {
    return settings;
  }

  DownloadRequest request() {
    return request;
  }

  Executor workers() {
    return workers;
  }

  SpeedMeter meter() {
    return meter;
  }

  LongAdder fetched() {
    return fetched;
  }
}
