package dev.braid.testserver;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The faults armed on a {@link Resource}, and its cap on requests in flight. Armed through the
 * resource's setters from any thread, claimed by the connections' threads: the armings are volatile
 * (setting one again replaces it), their counts and the requests in flight atomic.
 */
final class ArmedFaults {
  private volatile Fault drop;
  private volatile Fault truncate;
  private volatile Fault stall;
  private volatile Failure failure;
  private volatile int maxConcurrentRequests;
  /** Ranges {@code [from, to)} whose bytes every response sends inverted: a mirror that serves corrupt data. */
  private volatile List<long[]> corrupt = List.of();
  private final AtomicInteger inFlight = new AtomicInteger();

  void dropAfter(long bodyBytes, int times) {
    this.drop = new Fault(Fault.Kind.DROP, bodyBytes, Duration.ZERO, times);
  }

  void truncateAfter(long bodyBytes, int times) {
    this.truncate = new Fault(Fault.Kind.TRUNCATE, bodyBytes, Duration.ZERO, times);
  }

  void stallAfter(long bodyBytes, Duration d, int times) {
    this.stall = new Fault(Fault.Kind.STALL, bodyBytes, Objects.requireNonNull(d, "d"), times);
  }

  void trickleAfter(long bodyBytes, long bytesPerSecond, int times) {
    if (bytesPerSecond <= 0) {
      throw new IllegalArgumentException("bytesPerSecond must be positive");
    }
    this.stall = new Fault(Fault.Kind.TRICKLE, bodyBytes, Duration.ZERO, bytesPerSecond, times);
  }

  void failNext(int status, int times, Integer retryAfterSeconds) {
    if (status < 100 || status > 599) {
      throw new IllegalArgumentException("not an HTTP status: " + status);
    }
    this.failure = new Failure(status, retryAfterSeconds, new AtomicInteger(times));
  }

  void corruptBytes(long from, long to) {
    if (from < 0 || to <= from) {
      throw new IllegalArgumentException("need 0 <= from < to, not " + from + ", " + to);
    }
    List<long[]> now = new ArrayList<>(corrupt);
    now.add(new long[] {from, to});
    this.corrupt = List.copyOf(now);
  }

  void noCorruption() {
    this.corrupt = List.of();
  }

  /** Inverts the bytes of {@code buffer[0, n)}, the content from {@code position}, that lie in a corrupt range. */
  void corrupt(long position, byte[] buffer, int n) {
    for (long[] r : corrupt) {
      long from = Math.max(r[0], position);
      long to = Math.min(r[1], position + n);
      for (long p = from; p < to; p++) {
        buffer[(int) (p - position)] ^= (byte) 0xFF;
      }
    }
  }

  void maxConcurrentRequests(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("n < 0: " + n);
    }
    this.maxConcurrentRequests = n;
  }

  /** Claims one armed failure, or returns null if none is left. */
  Failure claimFailure() {
    Failure f = failure;
    return f != null && f.claim() ? f : null;
  }

  /** Claims the stall for a body of {@code bodyLength} bytes, or null if none applies. */
  Fault claimStall(long bodyLength) {
    Fault s = stall;
    return s != null && s.claim(bodyLength) ? s : null;
  }

  /** Claims a drop, else a truncation, for a body of {@code bodyLength} bytes, or null. */
  Fault claimEnding(long bodyLength) {
    Fault d = drop;
    if (d != null && d.claim(bodyLength)) {
      return d;
    }
    Fault t = truncate;
    return t != null && t.claim(bodyLength) ? t : null;
  }

  /** Counts a request in flight; false (and not counted) if that would exceed the cap. */
  boolean enter() {
    int now = inFlight.incrementAndGet();
    int max = maxConcurrentRequests;
    if (max > 0 && now > max) {
      inFlight.decrementAndGet();
      return false;
    }
    return true;
  }

  void exit() {
    inFlight.decrementAndGet();
  }

  /** An armed {@link #failNext} answer. */
  record Failure(int status, Integer retryAfterSeconds, AtomicInteger remaining) {
    boolean claim() {
      return remaining.getAndUpdate(r -> r > 0 ? r - 1 : 0) > 0;
    }
  }
}
