package dev.braid.client.remote;

import dev.braid.core.OutageRetry;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** An {@link OutageRetry} on the wire: {@code firstWaitMillis, maxWaitMillis, retryForMillis} (null: none), {@code maxTries}. */
final class RetryForm {
  private RetryForm() {}

  static Map<String, Object> of(OutageRetry r) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("firstWaitMillis", r.firstWait().toMillis());
    o.put("maxWaitMillis", r.maxWait().toMillis());
    o.put("retryForMillis", r.retryFor().map(Duration::toMillis).orElse(null));
    o.put("maxTries", r.maxTries());
    return o;
  }

  /** The policy {@code o} describes; IllegalArgumentException for values no policy has. */
  static OutageRetry read(RpcValue o) {
    OutageRetry r = OutageRetry.DEFAULT.withFirstWait(Duration.ofMillis(o.path("firstWaitMillis").asLong()))
        .withMaxWait(Duration.ofMillis(o.path("maxWaitMillis").asLong()));
    return o.path("retryForMillis").isNumber() ? r.withRetryFor(Duration.ofMillis(o.path("retryForMillis").asLong()))
        : r.withMaxTries(o.path("maxTries").asInt());
  }
}
