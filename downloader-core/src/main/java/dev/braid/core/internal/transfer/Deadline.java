package dev.braid.core.internal.transfer;

import dev.braid.core.FailureDetail;
import dev.braid.core.NetworkException;
import java.time.Duration;
import java.util.function.Supplier;

/** The overall deadline of one download, if it has one: how long it may take from start to finish. */
final class Deadline {
  /** Null: no deadline. */
  private final Duration limit;
  private final Supplier<Duration> elapsed;

  /**
   * @param limit the longest the download may take, or null for no limit
   * @param elapsed the time the download has taken so far
   */
  Deadline(Duration limit, Supplier<Duration> elapsed) {
    this.limit = limit;
    this.elapsed = elapsed;
  }

  /** Whether the deadline has passed (never, without one). */
  boolean passed() {
    return limit != null && elapsed.get().compareTo(limit) > 0;
  }

  /** The error a download past its deadline ends with; its bytes stay on disk for a resume. */
  NetworkException error() {
    return new NetworkException("the download did not finish within its deadline of " + limit.toMillis() / 1000.0
        + " s; run again to resume", null, FailureDetail.DEADLINE);
  }

  /** Fails when the deadline has passed. */
  void check() throws NetworkException {
    if (passed()) {
      throw error();
    }
  }
}
