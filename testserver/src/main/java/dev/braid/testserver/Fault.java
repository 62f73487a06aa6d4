package dev.braid.testserver;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/** A body fault armed for a number of responses: after {@code afterBytes} body bytes, do {@code kind}. */
final class Fault {
  enum Kind {
    /** Reset the connection. */
    DROP,
    /** Half-close the connection cleanly. */
    TRUNCATE,
    /** Pause for {@link #pause}, then carry on. */
    STALL,
    /** Send the rest of the body at {@link #rate} bytes per second. */
    TRICKLE
  }

  final Kind kind;
  final long afterBytes;
  final Duration pause;
  final long rate;
  private final AtomicInteger remaining;

  Fault(Kind kind, long afterBytes, Duration pause, int times) {
    this(kind, afterBytes, pause, 0, times);
  }

  Fault(Kind kind, long afterBytes, Duration pause, long rate, int times) {
    if (afterBytes < 0 || times < 0) {
      throw new IllegalArgumentException("bodyBytes and times must be >= 0");
    }
    this.kind = kind;
    this.afterBytes = afterBytes;
    this.pause = pause;
    this.rate = rate;
    this.remaining = new AtomicInteger(times);
  }

  /**
   * Uses up one of the remaining times if this fault would fire inside a body of
   * {@code bodyLength} bytes; bodies it cannot affect leave it armed for the next response.
   */
  boolean claim(long bodyLength) {
    return afterBytes < bodyLength && remaining.getAndUpdate(r -> r > 0 ? r - 1 : 0) > 0;
  }
}
