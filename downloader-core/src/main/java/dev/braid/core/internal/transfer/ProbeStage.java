package dev.braid.core.internal.transfer;

import dev.braid.core.DownloadException;
import dev.braid.core.DownloadPausedException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.IntegrityException;
import dev.braid.core.internal.fetch.TransientFailure;
import dev.braid.core.internal.http.OriginHeaders;
import dev.braid.core.internal.http.PhaseRecorder;
import dev.braid.core.internal.http.Requester;
import dev.braid.core.internal.probe.ProbeResult;
import dev.braid.core.internal.probe.Prober;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The first stage of a pass, on the driver thread: the probe, retried under the
 * {@link FailurePolicy}, of the request's URL and, when that fails for good (a 404, a refused
 * connection, retries used up), of each mirror in turn, so that a dead main URL does not fail a
 * download its mirrors serve. The main URL's error is the one reported when every URL fails.
 */
final class ProbeStage {
  /**
   * What answered.
   *
   * @param otherUrls the URLs after the one that answered, to be used as mirrors (those before it failed)
   */
  record Answer(ProbeResult result, List<URI> otherUrls) {}

  private final DownloadRequest request;
  private final OriginHeaders headers;
  private final Requester http;
  private final PhaseRecorder recorder;
  private final EngineSettings settings;
  private final PassControl control;
  private final Deadline deadline;
  /** Hears the URLs that failed while a mirror remained (the download's notes). */
  private final Consumer<String> notes;

  /**
   * @param request the pass's request: its URL and mirrors, and the length it expects
   * @param headers the user's headers for the request's origin
   * @param settings the retries and backoff of the probe's loop
   */
  ProbeStage(DownloadRequest request, OriginHeaders headers, Requester http, PhaseRecorder recorder,
      EngineSettings settings, PassControl control, Deadline deadline, Consumer<String> notes) {
    this.request = request;
    this.headers = headers;
    this.http = http;
    this.recorder = recorder;
    this.settings = settings;
    this.control = control;
    this.deadline = deadline;
    this.notes = notes;
  }

  Answer probe(ResumePlanner.ProbeRange range) throws DownloadException {
    List<URI> urls = new ArrayList<>();
    urls.add(request.uri());
    urls.addAll(request.mirrors());
    DownloadException first = null;
    for (int i = 0; i < urls.size(); i++) {
      try {
        ProbeResult r = probe(urls.get(i), range);
        return new Answer(r, List.copyOf(urls.subList(i + 1, urls.size())));
      } catch (DownloadPausedException e) {
        throw e;
      } catch (DownloadException e) {
        if (deadline.passed() || i == urls.size() - 1) {
          throw first == null ? e : first;
        }
        first = first == null ? e : first;
        notes.accept(urls.get(i) + " failed (" + e.getMessage() + "); trying the mirror " + urls.get(i + 1));
      }
    }
    throw new IllegalStateException("no URL to probe");
  }

  private ProbeResult probe(URI uri, ResumePlanner.ProbeRange range) throws DownloadException {
    FailurePolicy failures = new FailurePolicy(settings, control, recorder);
    while (true) {
      try {
        return withExpectedLength(Prober.probe(http, uri, headers, recorder, range.from(), range.to(), true));
      } catch (TransientFailure f) {
        Duration wait = failures.retryAfter(f, false);
        if (wait == null) {
          throw FailurePolicy.publicError(f);
        }
        control.sleep(wait, () -> false);
        if (control.pauseRequested()) {
          throw new DownloadPausedException("paused before the download started");
        }
        deadline.check();
      }
    }
  }

  /**
   * A URL that serves another length than the request expects (a Metalink's size) serves another
   * file: it fails like a dead URL, so the next mirror is probed; nothing of it is written.
   */
  private ProbeResult withExpectedLength(ProbeResult r) throws IntegrityException {
    long expected = request.expectedLength();
    long served = r.identity().length();
    if (expected >= 0 && served >= 0 && served != expected) {
      if (r.exchange() != null) {
        r.exchange().abort();
      }
      throw new IntegrityException(r.identity().finalUrl() + " serves " + served + " bytes where " + expected
          + " were expected");
    }
    return r;
  }
}
