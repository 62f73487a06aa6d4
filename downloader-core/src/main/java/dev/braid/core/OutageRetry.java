package dev.braid.core;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How the queue waits out an outage: when a download's run fails for a passing reason (a refused
 * or reset connection, a timeout, a name that did not resolve, a 5xx or 429 answer, a proxy that is
 * down) the download is not left failed but waits, queued, and runs again from its bytes: after
 * {@link #firstWait()}, then twice as long each time up to {@link #maxWait()} (each wait drawn
 * between its half and its whole, so that many downloads failing together do not come back
 * together; a server's Retry-After wins when it asks for longer). It gives up, and the download
 * fails as without this, once {@link #maxTries()} runs failed in a row or {@link #retryFor()} has
 * passed since the first of them, whichever comes first. A run that moved forward starts the count
 * again. Failures that waiting cannot fix (404, 410, a checksum, a full disk, a changed file that
 * may not be restarted, refused credentials) fail at once.
 *
 * <p>Immutable; each {@code with} method checks its argument and returns a new policy.
 */
public final class OutageRetry {
  /** The first wait of {@link #DEFAULT}. */
  public static final Duration DEFAULT_FIRST_WAIT = Duration.ofSeconds(5);
  /** The longest wait between two tries of {@link #DEFAULT}: a server back from an outage is tried again within it. */
  public static final Duration DEFAULT_MAX_WAIT = Duration.ofMinutes(2);
  /** How long {@link #DEFAULT} keeps trying after the first failure. */
  public static final Duration DEFAULT_RETRY_FOR = Duration.ofHours(1);
  /** Retries for 1 h, waiting 5 s at first and at most 2 min between tries: a daemon's and the desktop app's default. */
  public static final OutageRetry DEFAULT = new OutageRetry(DEFAULT_FIRST_WAIT, DEFAULT_MAX_WAIT, DEFAULT_RETRY_FOR, 0);
  /** One try: a passing failure fails the download at once (a library's and a foreground {@code braid get}'s default). */
  public static final OutageRetry NONE = new OutageRetry(DEFAULT_FIRST_WAIT, DEFAULT_MAX_WAIT, null, 1);

  private final Duration firstWait;
  private final Duration maxWait;
  private final Duration retryFor;
  private final int maxTries;

  private OutageRetry(Duration firstWait, Duration maxWait, Duration retryFor, int maxTries) {
    this.firstWait = firstWait;
    this.maxWait = maxWait;
    this.retryFor = retryFor;
    this.maxTries = maxTries;
  }

  /** {@return the wait after the first failed run} */
  public Duration firstWait() {
    return firstWait;
  }

  /** {@return the longest wait between two tries (a server's Retry-After may ask for more)} */
  public Duration maxWait() {
    return maxWait;
  }

  /** {@return how long after the first failure of a streak it keeps trying; empty for no time bound} */
  public Optional<Duration> retryFor() {
    return Optional.ofNullable(retryFor);
  }

  /** {@return the most runs in a row that may fail before the download fails; 0 for no count bound} */
  public int maxTries() {
    return maxTries;
  }

  /** {@return whether a passing failure is ever waited out (false for {@link #NONE}: one try)} */
  public boolean retries() {
    return maxTries != 1 && (retryFor == null || !retryFor.isZero());
  }

  /**
   * {@return this policy waiting {@code wait} after the first failure (aria2's retry-wait),
   * doubling up to {@link #maxWait()}, which is raised to {@code wait} if it was shorter}
   *
   * @param wait more than 0
   */
  public OutageRetry withFirstWait(Duration wait) {
    Objects.requireNonNull(wait, "wait");
    if (wait.isNegative() || wait.isZero()) {
      throw new IllegalArgumentException("the first wait must be more than 0, not " + wait);
    }
    return new OutageRetry(wait, wait.compareTo(maxWait) > 0 ? wait : maxWait, retryFor, maxTries);
  }

  /**
   * {@return this policy waiting at most {@code wait} between two tries}
   *
   * @param wait at least {@link #firstWait()}
   */
  public OutageRetry withMaxWait(Duration wait) {
    Objects.requireNonNull(wait, "wait");
    if (wait.compareTo(firstWait) < 0) {
      throw new IllegalArgumentException("the longest wait must be at least the first wait (" + firstWait + "), not " + wait);
    }
    return new OutageRetry(firstWait, wait, retryFor, maxTries);
  }

  /**
   * {@return this policy trying for {@code duration} after the first failure, with no count bound}
   * Zero means one try, as {@link #NONE}.
   *
   * @param duration 0 or more
   */
  public OutageRetry withRetryFor(Duration duration) {
    Objects.requireNonNull(duration, "duration");
    if (duration.isNegative()) {
      throw new IllegalArgumentException("the time to keep retrying cannot be negative, not " + duration);
    }
    return new OutageRetry(firstWait, maxWait, duration, 0);
  }

  /**
   * {@return this policy trying at most {@code tries} runs in a row, with no time bound (aria2's max-tries)}
   *
   * @param tries 1 for one try (no retry), 0 for no bound at all
   */
  public OutageRetry withMaxTries(int tries) {
    if (tries < 0) {
      throw new IllegalArgumentException("tries must be 0 (no bound) or more, not " + tries);
    }
    return new OutageRetry(firstWait, maxWait, null, tries);
  }

  /** {@return the policy as the queue's options keep it: {@code first-ms,max-ms,for-ms (-1 none),tries}} */
  public String text() {
    return firstWait.toMillis() + "," + maxWait.toMillis() + "," + (retryFor == null ? -1 : retryFor.toMillis()) + "," + maxTries;
  }

  /**
   * {@return the policy {@link #text()} wrote}
   *
   * @param text what {@link #text()} wrote
   * @throws IllegalArgumentException for anything else
   */
  public static OutageRetry parse(String text) {
    String[] p = text.split(",");
    if (p.length != 4) {
      throw new IllegalArgumentException("a retry policy is four numbers, not '" + text + "'");
    }
    long forMillis = Long.parseLong(p[2]);
    OutageRetry r = DEFAULT.withFirstWait(Duration.ofMillis(Long.parseLong(p[0])))
        .withMaxWait(Duration.ofMillis(Long.parseLong(p[1])));
    return forMillis < 0 ? r.withMaxTries(Integer.parseInt(p[3])) : r.withRetryFor(Duration.ofMillis(forMillis));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OutageRetry r && firstWait.equals(r.firstWait) && maxWait.equals(r.maxWait)
        && Objects.equals(retryFor, r.retryFor) && maxTries == r.maxTries;
  }

  @Override
  public int hashCode() {
    return Objects.hash(firstWait, maxWait, retryFor, maxTries);
  }

  @Override
  public String toString() {
    return "OutageRetry[first " + firstWait + ", max " + maxWait + (retryFor == null ? "" : ", for " + retryFor)
        + (maxTries == 0 ? "" : ", tries " + maxTries) + "]";
  }
}
