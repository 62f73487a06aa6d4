package dev.braid.core.internal.http;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOSession;

/**
 * One HTTP/2 connection of the client, as the reactor reported it: when it connected and how its
 * TLS handshake went (for the metrics of the download whose stream first uses it), when a stream
 * on it last received anything, and its streams, so that a stalled connection can be given up.
 * The reactor writes the activity; workers read it and may {@link #abandon} the connection.
 */
final class H2Connection {
  /**
   * A connection that sends nothing on any stream for this long, while a stream waits with its
   * window open, is stalled: as long as three windows of the HTTP/1.1 slow-connection rule.
   * lighttpd 1.4.69 stops every stream of a connection now and then under parallel ranges.
   */
  static final long STALL_NANOS = 3_000_000_000L;

  private final IOSession session;
  private final long connectedAt;
  private final Set<StreamBody> streams = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean claimed = new AtomicBoolean();
  private final AtomicBoolean abandoned = new AtomicBoolean();
  private volatile long lastActivity;
  private volatile long tlsStart;
  private volatile long tlsNanos = -1;
  private volatile boolean tlsResumed;

  H2Connection(IOSession session, long connectedAt) {
    this.session = session;
    this.connectedAt = connectedAt;
    this.lastActivity = connectedAt;
  }

  boolean runsOn(IOSession s) {
    return session == s || session.getId().equals(s.getId());
  }

  /** A head or DATA frame arrived on one of its streams. Reactor thread. */
  void touch(long now) {
    lastActivity = now;
  }

  /** How long no head or DATA frame arrived on any of its streams. */
  long silentFor(long now) {
    return now - lastActivity;
  }

  /** The TLS handshake began at {@code start} (the TCP connect was done) and took {@code nanos}. */
  void tls(long start, long nanos, boolean resumed) {
    tlsStart = start;
    tlsResumed = resumed;
    tlsNanos = nanos;
  }

  void add(StreamBody stream, long now) {
    streams.add(stream);
    touch(now);
  }

  void remove(StreamBody stream) {
    streams.remove(stream);
  }

  /**
   * Reports the connection's set-up to {@code recorder} if no download has yet: the first stream
   * that uses a connection is the request that opened it (the others waited for it), so its start
   * is when the connect began, and the handshake began when the connect was done. DNS is
   * recorded where it runs, in the resolver.
   */
  void claim(PhaseRecorder recorder, long requestStart) {
    if (claimed.compareAndSet(false, true)) {
      long tls = tlsNanos;
      recorder.connected(Math.max(0, (tls >= 0 ? tlsStart : connectedAt) - requestStart));
      if (tls >= 0) {
        recorder.handshake(tls, tlsResumed);
      }
    }
  }

  /**
   * Gives the connection up: every stream on it fails with {@code cause} (their workers go on from
   * where they are, on a new connection), and the socket closes at once so that no request is
   * sent on it again. Idempotent; any thread.
   */
  void abandon(IOException cause) {
    if (!abandoned.compareAndSet(false, true)) {
      return;
    }
    for (StreamBody s : streams) {
      s.fail(cause);
    }
    session.close(CloseMode.IMMEDIATE);
  }
}
