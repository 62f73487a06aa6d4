package dev.braid.core.internal.transfer;

import dev.braid.core.ConnectionChange;
import dev.braid.core.DownloadException;
import dev.braid.core.DownloadNote;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadResult;
import dev.braid.core.HttpStatusException;
import dev.braid.core.IntegrityException;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.LocalFileException;
import dev.braid.core.Progress;
import dev.braid.core.RemoteChangedException;
import dev.braid.core.TransferMetrics;
import dev.braid.core.internal.fetch.RangesRefused;
import dev.braid.core.internal.fetch.RemoteChanged;
import dev.braid.core.internal.http.HttpTransport;
import dev.braid.core.internal.http.PhaseListener;
import dev.braid.core.internal.http.PhaseRecorder;
import dev.braid.core.internal.http.RequestProxy;
import dev.braid.core.internal.limit.Throttle;
import dev.braid.core.internal.limit.TokenBucket;
import dev.braid.core.internal.metrics.SpeedMeter;
import dev.braid.core.internal.plan.SegmentTable;
import dev.braid.store.RemoteIdentity;
import dev.braid.store.StateStore;
import dev.braid.store.StoreException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

  /** What each pass is built from. */
  private final DownloadParts parts;
  /** The request and its headers as they stand now: {@link #changeUrl} (a refreshed link) replaces them. */
  private final CurrentLink link;
  private final TokenBucket rateLimit;
  private final CompletableFuture<DownloadResult> result = new CompletableFuture<>();

  private volatile boolean pauseRequested;
  private volatile Attempt current;
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
    this.link = new CurrentLink(request);
    this.rateLimit = new TokenBucket(request.rateLimit(), settings.ticker());
    this.parts = parts(http, store, settings, request, workers, budget, new Throttle(rateLimit, globalRate), phases);
  }

  /** What the passes of a download of {@code request} are built from (a stream's too). */
  static DownloadParts parts(HttpTransport http, StateStore store, EngineSettings settings, DownloadRequest request,
      Executor workers, ConnectionBudget budget, Throttle throttle, PhaseListener phases) {
    ProtocolRoute route = new ProtocolRoute(http, RequestProxy.forDownload(request.proxy().orElse(null)), store.hosts(),
        settings.httpVersion(), settings.clock());
    PhaseRecorder recorder = new PhaseRecorder(phases);
    SpeedMeter meter = new SpeedMeter(5_000);
    DownloadLog log = new DownloadLog(settings.ticker());
    // the request's connection counts and split size, which HostConnections reads, stay when its link moves
    HostConnections hosts = new HostConnections(request, log, settings.clock(), store.hosts(), route, budget, recorder, workers, meter);
    return new DownloadParts(settings, store.records(), store.location(), route, recorder, budget, hosts, workers,
        throttle, new LongAdder(), meter, log, new Deadline(settings.deadline(), log::elapsed));
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
      Attempt attempt = new Attempt(parts, asked, link.originHeaders(), () -> pauseRequested);
      long fetchedBefore = parts.fetched().sum();
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
            && !link.refreshed(e, parts.fetched().sum() > fetchedBefore || attempt.resuming(), attempt.target(),
                parts.log()::note)) {
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
    return parts.metrics();
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
      return new Progress(-1, 0, 0, 0, parts.log().elapsed(), List.of());
    }
    return new Progress(a.identity().length(), t.doneBytes(), parts.meter().bytesPerSecond(), a.connections(),
        parts.log().elapsed(), t.view());
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
    return parts.log().changes();
  }

  /** Every note of this run so far, oldest first: events that change no connection count. */
  public List<DownloadNote> notes() {
    return parts.log().notes();
  }

  /** Changes this download's own rate limit while it runs (0 = none). */
  public void rateLimit(long bytesPerSecond) {
    rateLimit.setRate(bytesPerSecond);
  }

  /** Why the last restart from zero happened, or null. */
  public String lastRestartReason() {
    return parts.log().lastRestartReason();
  }

  /** Bytes on disk that failed their block check at resume and are fetched again. */
  public long damagedBytes() {
    return parts.log().damagedBytes();
  }
}
