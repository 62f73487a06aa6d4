package dev.braid.core.internal.fetch;

import dev.braid.core.HttpStatusException;
import dev.braid.core.internal.http.Exchange;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** Sorts error statuses into those worth retrying (with the server's Retry-After) and final ones. */
public final class StatusCheck {
  private static final Duration MAX_RETRY_AFTER = Duration.ofMinutes(2);

  private StatusCheck() {}

  /** Throws for any status other than those in {@code accepted}. */
  public static void require(Exchange ex, int... accepted) throws TransientFailure, HttpStatusException {
    int status = ex.status();
    for (int a : accepted) {
      if (status == a) {
        return;
      }
    }
    String where = ex.finalUri().toString();
    if (status == 408 || status == 429 || status >= 500) {
      throw new TransientFailure(TransientFailure.Kind.HTTP_STATUS, "HTTP " + status + " from " + where, status,
          retryAfter(ex.header("Retry-After")), null);
    }
    throw new HttpStatusException(status, "HTTP " + status + " from " + where);
  }

  /** Retry-After as delta-seconds or an HTTP date, capped; null when absent or unreadable. */
  static Duration retryAfter(String value) {
    if (value == null) {
      return null;
    }
    Duration d;
    try {
      d = Duration.ofSeconds(Long.parseLong(value.trim()));
    } catch (NumberFormatException e) {
      try {
        d = Duration.between(ZonedDateTime.now(), ZonedDateTime.parse(value.trim(), DateTimeFormatter.RFC_1123_DATE_TIME));
      } catch (DateTimeParseException e2) {
        return null;
      }
    }
    if (d.isNegative()) {
      return Duration.ZERO;
    }
    return d.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : d;
  }
}
