package dev.braid.core.internal.queue;

import dev.braid.core.DownloadFailure;
import dev.braid.core.HttpStatusException;
import dev.braid.core.OutageRetry;
import dev.braid.store.EntryRetry;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.LongUnaryOperator;

/**
 * The queue's rule for a run that failed: whether the failure passes (an outage) and, under the
 * download's {@link OutageRetry}, when the next try starts, or that the download fails now. The
 * retry state it returns is what the store keeps, so a restarted process goes on counting.
 *
 * <p>Threads: {@link #after} runs on download driver threads; the default policy is volatile,
 * changed by any thread ({@link #defaultPolicy(OutageRetry)}).
 */
public final class OutageWaits {
  private final Clock clock;
  /** Given a bound n, a number in [0, n]: the jitter's draw (tests give a fixed one). */
  private final LongUnaryOperator draw;
  private volatile OutageRetry defaultPolicy;

  public OutageWaits(Clock clock, LongUnaryOperator draw, OutageRetry defaultPolicy) {
    this.clock = clock;
    this.draw = draw;
    this.defaultPolicy = defaultPolicy;
  }

  /** The policy of downloads that do not carry their own. */
  public void defaultPolicy(OutageRetry p) {
    defaultPolicy = p;
  }

  public OutageRetry defaultPolicy() {
    return defaultPolicy;
  }

  /**
   * The retry state after a run ended with {@code failure}: when to run again, or empty when the
   * download fails now (the failure does not pass, or the policy gave up).
   *
   * @param failure what ended the run
   * @param before the entry's retry state when the run started
   * @param progressed whether the run moved the download forward (a new streak starts)
   * @param own the download's own policy, or null for the default
   */
  public Optional<EntryRetry> after(Throwable failure, EntryRetry before, boolean progressed, OutageRetry own) {
    OutageRetry p = own != null ? own : defaultPolicy;
    if (!p.retries() || !DownloadFailure.of(failure).passes()) {
      return Optional.empty();
    }
    long now = clock.millis();
    boolean fresh = progressed || before.failures() == 0;
    int failures = fresh ? 1 : before.failures() + 1;
    long since = fresh ? now : before.sinceMillis();
    if ((p.maxTries() > 0 && failures >= p.maxTries())
        || p.retryFor().map(d -> now - since >= d.toMillis()).orElse(false)) {
      return Optional.empty();
    }
    Duration asked = failure instanceof HttpStatusException h ? h.retryAfter().orElse(null) : null;
    return Optional.of(new EntryRetry(now + wait(p, failures, asked).toMillis(), failures, since));
  }

  /**
   * The wait after the {@code failures}th failure in a row: the first wait doubled per failure up
   * to the longest, drawn between its half and its whole; a longer Retry-After wins.
   */
  Duration wait(OutageRetry p, int failures, Duration retryAfter) {
    long base = p.firstWait().toMillis() << Math.min(failures - 1, 30);
    long capped = base <= 0 ? p.maxWait().toMillis() : Math.min(base, p.maxWait().toMillis());
    // jitter spreads the tries of many downloads that failed together
    long jittered = capped / 2 + draw.applyAsLong(capped / 2);
    return retryAfter != null && retryAfter.toMillis() > jittered ? retryAfter : Duration.ofMillis(jittered);
  }
}
