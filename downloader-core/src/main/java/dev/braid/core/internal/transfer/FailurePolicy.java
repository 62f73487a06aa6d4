package dev.braid.core.internal.transfer;

import dev.braid.core.DownloadException;
import dev.braid.core.HttpStatusException;
import dev.braid.core.IntegrityException;
import dev.braid.core.NetworkException;
import dev.braid.core.internal.fetch.TransientFailure;
import dev.braid.core.internal.http.PhaseRecorder;
import java.time.Duration;

/**
 * The one rule for transient failures, used by the probe's loop and by every worker's: how many
 * in a row a loop may take, how long it waits before the next try, and which public error a
 * failure becomes once they run out. One instance per retrying loop; not thread-safe.
 */
final class FailurePolicy {
  private final EngineSettings settings;
  private final PassControl control;
  private final PhaseRecorder recorder;
  private int failures;

  FailurePolicy(EngineSettings settings, PassControl control, PhaseRecorder recorder) {
    this.settings = settings;
    this.control = control;
    this.recorder = recorder;
  }

  /**
   * Counts {@code f}. Returns the wait before the next try, or null when the loop has used up its
   * retries. A try that {@code progressed} starts the count again at this failure: a connection
   * that keeps moving forward is never given up.
   */
  Duration retryAfter(TransientFailure f, boolean progressed) {
    failures = progressed ? 1 : failures + 1;
    control.noteFailure(f);
    if (failures > settings.maxRetries()) {
      return null;
    }
    recorder.retry();
    return Backoff.delay(settings, failures, f.retryAfter());
  }

  /** A try succeeded: the next failure is the first again. */
  void succeeded() {
    failures = 0;
  }

  /** The public error a transient failure becomes when it ends a download. */
  static DownloadException publicError(TransientFailure f) {
    return switch (f.kind()) {
      case NETWORK -> new NetworkException(f.getMessage(), f);
      case HTTP_STATUS -> new HttpStatusException(f.status(), f.getMessage(), f.retryAfter());
      case PROTOCOL -> new IntegrityException("the server's responses failed validation: " + f.getMessage(), f);
    };
  }
}
