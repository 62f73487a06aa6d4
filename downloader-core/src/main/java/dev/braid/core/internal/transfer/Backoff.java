package dev.braid.core.internal.transfer;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/** Exponential backoff with jitter; a server's Retry-After wins when it asks for longer. */
final class Backoff {
  private Backoff() {}

  static Duration delay(EngineSettings s, int failures, Duration retryAfter) {
    long base = s.firstBackoff().toMillis() << Math.min(failures - 1, 20);
    long capped = Math.min(base, s.maxBackoff().toMillis());
    // jitter spreads the retries of many connections that failed together
    long jittered = capped / 2 + ThreadLocalRandom.current().nextLong(capped / 2 + 1);
    if (retryAfter != null && retryAfter.toMillis() > jittered) {
      return retryAfter;
    }
    return Duration.ofMillis(jittered);
  }
}
