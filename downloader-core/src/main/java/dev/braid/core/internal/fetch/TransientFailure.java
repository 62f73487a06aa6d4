package dev.braid.core.internal.fetch;

import java.time.Duration;

/**
 * A failure that retrying the same range may fix: a dropped or stalled connection, a 5xx or 429,
 * a response that failed validation. Carries what the last try learned, so a download that
 * exhausts its retries can say why in the user's terms.
 */
public final class TransientFailure extends Exception {
  /** What went wrong, to pick the public error once retries run out. */
  public enum Kind { NETWORK, HTTP_STATUS, PROTOCOL }

  private final Kind kind;
  private final int status;
  private final Duration retryAfter;

  public TransientFailure(Kind kind, String message, int status, Duration retryAfter, Throwable cause) {
    super(message, cause);
    this.kind = kind;
    this.status = status;
    this.retryAfter = retryAfter;
  }

  public static TransientFailure network(String message, Throwable cause) {
    return new TransientFailure(Kind.NETWORK, message, 0, null, cause);
  }

  public static TransientFailure protocol(String message) {
    return new TransientFailure(Kind.PROTOCOL, message, 0, null, null);
  }

  public Kind kind() {
    return kind;
  }

  /** The HTTP status for {@link Kind#HTTP_STATUS}, else 0. */
  public int status() {
    return status;
  }

  /** The server's Retry-After, or null. */
  public Duration retryAfter() {
    return retryAfter;
  }
}
