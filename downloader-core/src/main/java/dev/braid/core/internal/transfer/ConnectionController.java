package dev.braid.core.internal.transfer;

import java.util.Locale;

/**
 * Decides how many connections a download runs, from the throughput it observes: start small,
 * double while the aggregate rate rises by a clear margin (quadruple after a step that scaled
 * almost linearly), hold when a step leaves it flat, go back when a step makes it clearly worse,
 * and never exceed the caps or a limit the server showed by refusing extra connections. Pure
 * logic; synchronized because the driver thread samples while worker threads report refusals.
 *
 * <p>Each step waits {@link #SETTLE_NANOS} for new connections to get going (handshake, first
 * bytes, TCP slow start) and then measures for {@link #MEASURE_NANOS}; the comparison is between
 * whole measurement windows, never single buffers. On a long path both stretch to a number of
 * round trips ({@link #SETTLE_RTTS}, {@link #MEASURE_RTTS}): a new connection needs round trips,
 * not milliseconds, to reach its pace, and a loss-limited one needs several to show it.
 */
final class ConnectionController {
  static final long SETTLE_NANOS = 250_000_000L;
  static final long MEASURE_NANOS = 500_000_000L;
  static final int SETTLE_RTTS = 4;
  static final int MEASURE_RTTS = 8;
  /** A step up must raise throughput by this fraction to be kept. */
  static final double MARGIN = 0.15;
  /**
   * A doubling that raised throughput by this fraction scaled almost linearly: the server limits
   * each connection, so the next step quadruples instead of doubling.
   */
  static final double LINEAR = 0.8;

  /** A change of target and its reason, for the driver to apply and report. */
  record Decision(int from, int to, String reason) {}

  private final boolean pinned;
  private final int cap;
  private final long settleNanos;
  private final long measureNanos;
  private int limit;
  private int target;
  private int previous;
  private boolean settled;
  private double baseline = -1;
  private long stepStart;
  private long measureStartBytes = -1;

  /**
   * @param start the first target (what the host memory suggests, or a small default)
   * @param cap the most connections allowed (per-download cap, learned server limit)
   * @param pinned a fixed count the user asked for: no adaptation, only server limits apply
   */
  ConnectionController(int start, int cap, boolean pinned, long now) {
    this(start, cap, pinned, now, 0);
  }

  /** As above, with {@code rttNanos} the round-trip time seen so far (0: unknown or negligible). */
  ConnectionController(int start, int cap, boolean pinned, long now, long rttNanos) {
    this.settleNanos = Math.max(SETTLE_NANOS, SETTLE_RTTS * rttNanos);
    this.measureNanos = Math.max(MEASURE_NANOS, MEASURE_RTTS * rttNanos);
    this.pinned = pinned;
    this.cap = cap;
    this.limit = cap;
    this.target = Math.max(1, Math.min(start, cap));
    this.previous = target;
    this.settled = pinned;
    this.stepStart = now;
  }

  synchronized int target() {
    return target;
  }

  /** The server's limit if it refused connections, else the cap. */
  synchronized int limit() {
    return limit;
  }

  synchronized boolean serverLimited() {
    return limit < cap;
  }

  /**
   * Whether this download measured anything worth remembering for the host: a whole measurement
   * window, or a limit the server showed. A file done within the first window teaches nothing.
   */
  synchronized boolean learned() {
    return baseline >= 0 || serverLimited();
  }

  /**
   * A new throughput sample: {@code bytes} fetched in total at {@code now}, with {@code busy}
   * connections streaming. Returns a decision when the target changes.
   */
  synchronized Decision sample(long now, long bytes, int busy) {
    if (settled) {
      return null;
    }
    long elapsed = now - stepStart;
    if (elapsed < settleNanos) {
      return null;
    }
    if (measureStartBytes < 0) {
      measureStartBytes = bytes;
      return null;
    }
    if (elapsed < settleNanos + measureNanos) {
      return null;
    }
    if (busy < target) {
      // not every connection had a piece to stream: this window says nothing, so measure again
      // (settling here stopped a ramp for good when one connection lacked a piece for a moment)
      restart(now);
      return null;
    }
    double rate = (bytes - measureStartBytes) * 1e9 / (elapsed - settleNanos);
    if (rate <= 0) {
      // every connection busy and not a byte: the server paused, which says nothing about the
      // count, and a baseline of nothing made the next step "NaN% more throughput"
      restart(now);
      return null;
    }
    if (baseline >= 0 && rate < baseline * (1 + MARGIN)) {
      settled = true;
      if (rate >= baseline * (1 - MARGIN)) {
        // flat: hold; the extra connections cost little and the measurement may have been unlucky
        return new Decision(target, target, String.format(Locale.ROOT,
            "plateau: %d connections gave %s over %d, holding", target, percent(rate / baseline - 1), previous));
      }
      int from = target;
      target = previous;
      return new Decision(from, target, String.format(Locale.ROOT,
          "worse: %d connections gave %s against %d, back to %d", from, percent(rate / baseline - 1), target, target));
    }
    double gain = baseline < 0 ? 0 : rate / baseline - 1;
    String why = baseline < 0 ? "ramp" : "ramp: " + percent(gain) + " more throughput";
    baseline = rate;
    if (target >= limit) {
      settled = true;
      return null;
    }
    previous = target;
    target = Math.min(limit, target * (gain >= LINEAR ? 4 : 2));
    restart(now);
    return new Decision(previous, target, why);
  }

  /**
   * Whether a refusal with {@code busy} other connections streaming tells a limit. Once the
   * server has shown its limit, a refusal below it is a straggler: the server still counts
   * connections this side has just closed, so the refused connection retries instead.
   */
  synchronized boolean isLimitSignal(int busy) {
    return busy >= 1 && (!serverLimited() || busy >= limit);
  }

  /**
   * The server refused a connection beyond {@code busy} working ones (503/429, refused, reset,
   * 403 on an extra connection): that many is its limit.
   */
  synchronized Decision refused(int busy, long now) {
    int newLimit = Math.max(1, Math.min(busy, limit));
    if (newLimit >= limit && target <= newLimit) {
      return null;
    }
    limit = newLimit;
    settled = true;
    int from = target;
    target = Math.min(target, limit);
    previous = target;
    return from == target ? null : new Decision(from, target, "server limit: it refused connection " + (busy + 1));
  }

  private void restart(long now) {
    stepStart = now;
    measureStartBytes = -1;
  }

  private static String percent(double fraction) {
    return String.format(Locale.ROOT, "%+.0f%%", fraction * 100).replace("+-", "-");
  }
}
