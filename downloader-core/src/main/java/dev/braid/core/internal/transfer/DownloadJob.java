package dev.braid.core.internal.transfer;

import dev.braid.core.ConnectionChange;
import dev.braid.core.DownloadNote;
import dev.braid.core.DownloadException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadResult;
import dev.braid.core.FailureDetail;
import dev.braid.core.HttpStatusException;
import dev.braid.core.IntegrityException;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.LocalFileException;
import dev.braid.core.NetworkException;
import dev.braid.core.Progress;
import dev.braid.core.RemoteChangedException;
import dev.braid.core.TransferMetrics;
import dev.braid.core.internal.fetch.RangesRefused;
import dev.braid.core.internal.fetch.RemoteChanged;
import dev.braid.core.internal.http.HttpTransport;
import dev.braid.core.internal.limit.Throttle;
import dev.braid.core.internal.limit.TokenBucket;
import dev.braid.core.internal.http.OriginHeaders;
import dev.braid.core.internal.http.PhaseListener;
import dev.braid.core.internal.http.PhaseRecorder;
import dev.braid.core.internal.http.RequestProxy;
import dev.braid.core.internal.metrics.SpeedMeter;
import dev.braid.core.internal.plan.SegmentTable;
import dev.braid.store.RemoteIdentity;
import dev.braid.store.ResumeRecords;
import dev.braid.store.StateStore;
import dev.braid.store.StoreException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

  private final ProtocolRoute route;
  private final StateStore store;
  private final EngineSettings settings;
  /** The request and its headers as they stand now: {@link #changeUrl} (a refreshed link) replaces them. */
  private final CurrentLink link;
  private final HostConnections hosts;
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
  private final long startNanos;

  private volatile boolean pauseRequested;
  private volatile Attempt current;
  private volatile String lastRestartReason;
  private int restarts;
  private volatile long damaged;
  private int changesSeen;
  /** Passes ended because the server answered a range with the whole, unchanged file. */
  private int refusals;

  /**
   * @param workers runs the worker loops, one thread per open connection
   * @param budget the {@code Braid}-wide connection budget; each worker holds a permit while it runs
   * @param globalRate the {@code Braid}-wide rate limit, which this download's own limit is nested in
   * @param phases hears this download's connection phases too (the {@code Braid}-wide metrics)
   */
  public DownloadJob(HttpTransport http, StateStore store, EngineSettings settings, DownloadRequest request, Executor workers,
      ConnectionBudget budget, TokenBucket globalRate, PhaseListener phases) {
    this.route = new ProtocolRoute(http, RequestProxy.forDownload(request.proxy().orElse(null)), store.hosts(),
        settings.httpVersion(), settings.clock());
    this.store = store;
    this.settings = settings;
    this.startNanos = settings.ticker().read();
    this.link = new CurrentLink(request);
    this.workers = workers;
    this.budget = budget;
    this.rateLimit = new TokenBucket(request.rateLimit(), settings.ticker());
    this.throttle = new Throttle(rateLimit, globalRate);
    this.recorder = new PhaseRecorder(phases);
    this.hosts = new HostConnections(this, store.hosts(), route, budget, recorder, workers, meter);
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
      DownloadRequest asked = link.request();
      Attempt attempt = new Attempt(this);
      long fetchedBefore = fetched.sum();
      current = attempt;
      if (pauseRequested) {
        attempt.halt(null);
      }
      if (link.request() != asked) {
        // changeUrl came between: it halted the pass before this one, so this one stops for it
        attempt.halt(new LinkChanged("moved to " + link.request().uri()));
      }
      try {
        return attempt.run();
      } catch (LinkChanged e) {
        // the next pass probes the new URL
      } catch (HttpStatusException e) {
        if (link.request() == asked
            && !link.refreshed(e, fetched.sum() > fetchedBefore || attempt.resuming(), attempt.target(), this::note)) {
          throw e;
        }
      } catch (RangesRefused e) {
        // not a change: the next pass resumes, or streams the file whole if ranges are gone for good
        if (++refusals > MAX_RESTARTS) {
          throw new IntegrityException("the server kept answering ranges with the whole file (" + refusals
              + " passes); gave up", e);
        }
      } catch (RemoteChanged e) {
        if (!link.request().restartIfChanged()) {
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
   * Moves this download to {@code uri}, a new link for the same file (a new signed URL, say): the
   * pass running now stops with its bytes recorded, and the next probes {@code uri} and continues
   * only where it proves to serve the file on disk (same length and strong validator, or the same
   * bytes in a sample of finished blocks); otherwise the download fails with
   * {@link dev.braid.core.LinkRefusedException} and nothing is spliced. Any thread.
   */
  public void changeUrl(URI uri) throws InvalidRequestException {
    Attempt a = current;
    link.moveTo(uri, a == null ? null : a.target());
    a = current;
    if (a != null) {
      a.halt(new LinkChanged("moved to " + uri));
    }
  }

  /**
   * Sends {@code headers} (checked ones, by name) to the URL's origin from now on, in place of the
   * request's: the pass running now stops with its bytes recorded, and the next continues with
   * them. Nothing when they are the ones in use. Any thread.
   */
  public void headers(Map<String, String> headers) {
    if (!link.headers(headers)) {
      return;
    }
    Attempt a = current;
    if (a != null) {
      a.halt(new LinkChanged("new request headers"));
    }
  }

  /** The URL this download fetches from now: the request's, or the one it moved to. */
  public URI currentUri() {
    return link.request().uri();
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
        + " s; run again to resume", null, FailureDetail.DEADLINE);
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
    return link.originHeaders();
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
    return Duration.ofNanos(settings.ticker().read() - startNanos);
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
    return link.request();
  }

  /** How many connections this download opens to its host, and what it remembers of it. */
  HostConnections hostConnections() {
    return hosts;
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
