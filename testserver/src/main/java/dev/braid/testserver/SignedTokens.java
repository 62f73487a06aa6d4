package dev.braid.testserver;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Tokens a resource's URLs must carry ({@code ?token=T}), like a CDN's signed URLs: each one
 * works until the resource has sent {@code budget} body bytes since the token was issued, after
 * which a request that carries it (or none, or an unknown one) gets 403. A response already under
 * way is never cut: expiry is checked when a request arrives, as a signed URL's is.
 */
final class SignedTokens {
  private final long budget;
  private final Map<String, Long> issuedAt = new ConcurrentHashMap<>();
  private final AtomicInteger issued = new AtomicInteger();

  SignedTokens(long budget) {
    this.budget = budget;
  }

  /** A new token, valid from now for {@code budget} bytes of the resource's bodies. */
  String issue(long sentSoFar) {
    String token = "t" + issued.incrementAndGet();
    issuedAt.put(token, sentSoFar);
    return token;
  }

  /** Whether the request target {@code target} carries a token that still works. */
  boolean accepts(String target, long sentSoFar) {
    Long at = issuedAt.get(tokenOf(target));
    return at != null && sentSoFar - at < budget;
  }

  private static String tokenOf(String target) {
    int q = target.indexOf('?');
    if (q < 0) {
      return "";
    }
    for (String pair : target.substring(q + 1).split("&")) {
      if (pair.startsWith("token=")) {
        return pair.substring("token=".length());
      }
    }
    return "";
  }
}
