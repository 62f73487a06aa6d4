package dev.braid.testserver;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The body bytes a {@link Resource} has sent, and the expiring tokens measured against them. The
 * connections' threads add to the atomic counts as they write; tests read them and issue tokens
 * from any thread, and the token arming is volatile.
 */
final class SentBytes {
  private volatile SignedTokens tokens;
  private final AtomicLong body = new AtomicLong();
  private final AtomicLong slowConnection = new AtomicLong();

  void expiringTokens(long bytesPerToken) {
    if (bytesPerToken <= 0) {
      throw new IllegalArgumentException("bytesPerToken must be positive: " + bytesPerToken);
    }
    this.tokens = new SignedTokens(bytesPerToken);
  }

  /** A new token for {@link #expiringTokens}, valid from now. */
  String freshToken() {
    SignedTokens t = tokens;
    if (t == null) {
      throw new IllegalStateException("expiringTokens is not armed");
    }
    return t.issue(body.get());
  }

  /** Whether a request for {@code target} passes the token check (always, when none is armed). */
  boolean tokenAccepted(String target) {
    SignedTokens t = tokens;
    return t == null || t.accepts(target, body.get());
  }

  /** Body bytes written to sockets for this resource (bytes a failed write did not send excluded). */
  long body() {
    return body.get();
  }

  long slowConnection() {
    return slowConnection.get();
  }

  void addBody(long n) {
    body.addAndGet(n);
  }

  void addSlowConnection(long n) {
    slowConnection.addAndGet(n);
  }
}
