package dev.braid.core.internal.http;

import dev.braid.core.TransferMetrics;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts one download's connection phases. The classic client runs DNS, connect, TLS and the
 * request on the calling thread, so {@link HttpTransport} binds the caller's recorder to that
 * thread for the duration of the call, and the resolver, socket, TLS strategy and request
 * executor report to {@link #current()}: no per-request listener is needed (HttpClient has none).
 * Thread-safe: every worker of a download reports to the same recorder.
 */
public final class PhaseRecorder {
  private static final PhaseRecorder DISCARD = new PhaseRecorder();
  private static final ThreadLocal<PhaseRecorder> CURRENT = new ThreadLocal<>();
  /**
   * Whether this thread opened a connection since its last request: that request paid for its
   * connection; any other ran on a reused one, also one warmed by another thread and never used.
   */
  private static final ThreadLocal<Boolean> OPENED_HERE = new ThreadLocal<>();

  private final LongAdder dnsLookups = new LongAdder();
  private final LongAdder dnsHits = new LongAdder();
  private final LongAdder dnsNanos = new LongAdder();
  private final LongAdder connections = new LongAdder();
  private final LongAdder connectNanos = new LongAdder();
  private final LongAdder handshakes = new LongAdder();
  private final LongAdder resumed = new LongAdder();
  private final LongAdder tlsNanos = new LongAdder();
  private final LongAdder requests = new LongAdder();
  private final LongAdder reused = new LongAdder();
  private final LongAdder firstByteNanos = new LongAdder();
  private final LongAdder retries = new LongAdder();
  private final PhaseListener also;

  /** A recorder whose events go nowhere else. */
  public PhaseRecorder() {
    this(PhaseListener.NONE);
  }

  /** A recorder that also passes every event to {@code also} (the {@code Braid}-wide metrics). */
  public PhaseRecorder(PhaseListener also) {
    this.also = also;
  }

  /** The recorder bound to this thread, or one whose counts nobody reads. */
  static PhaseRecorder current() {
    PhaseRecorder r = CURRENT.get();
    return r == null ? DISCARD : r;
  }

  /** Binds this recorder to the calling thread until the returned scope closes. */
  Scope bind() {
    PhaseRecorder previous = CURRENT.get();
    CURRENT.set(this);
    // pooled threads run many calls: a mark left by an earlier one is not this call's
    OPENED_HERE.remove();
    return () -> {
      OPENED_HERE.remove();
      if (previous == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(previous);
      }
    };
  }

  /** Undoes {@link #bind()}. */
  interface Scope extends AutoCloseable {
    @Override
    void close();
  }

  void dns(long nanos, boolean asked) {
    (asked ? dnsLookups : dnsHits).increment();
    dnsNanos.add(nanos);
    also.dns(nanos, asked);
  }

  void connected(long nanos) {
    OPENED_HERE.set(Boolean.TRUE);
    connections.increment();
    connectNanos.add(nanos);
    also.connected(nanos);
  }

  void handshake(long nanos, boolean wasResumed) {
    handshakes.increment();
    if (wasResumed) {
      resumed.increment();
    }
    tlsNanos.add(nanos);
    also.handshake(nanos, wasResumed);
  }

  /** Whether this thread opened a connection since the last call; clears the mark. */
  static boolean takeOpenedHere() {
    boolean opened = OPENED_HERE.get() != null;
    OPENED_HERE.remove();
    return opened;
  }

  void firstByte(long nanos, boolean reusedConnection) {
    requests.increment();
    if (reusedConnection) {
      reused.increment();
    }
    firstByteNanos.add(nanos);
    also.firstByte(nanos, reusedConnection);
  }

  /** A request is tried again after a failure. */
  public void retry() {
    retries.increment();
    also.retry();
  }

  /** The counts so far, with {@code bytes} received. */
  public TransferMetrics snapshot(long bytes) {
    return new TransferMetrics(dnsLookups.sum(), dnsHits.sum(), Duration.ofNanos(dnsNanos.sum()), connections.sum(),
        Duration.ofNanos(connectNanos.sum()), handshakes.sum(), resumed.sum(), Duration.ofNanos(tlsNanos.sum()),
        requests.sum(), reused.sum(), Duration.ofNanos(firstByteNanos.sum()), retries.sum(), bytes);
  }
}
