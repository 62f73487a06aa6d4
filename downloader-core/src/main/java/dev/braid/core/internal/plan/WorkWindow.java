package dev.braid.core.internal.plan;

import java.util.List;

/**
 * The window of work of an in-order download ({@link SegmentTable#inOrder}): where it ends, which
 * owner stands beyond it, and the idle workers waiting for it to move. Holds only its size and
 * the count of waiters; the segments belong to the {@link SegmentTable}, whose lock the caller
 * holds for every call but {@link #bytes()} and {@link #on()}.
 */
final class WorkWindow {
  /** Bytes of work after the first missing byte; 0 for no bound (work anywhere). */
  private volatile long bytes;
  /**
   * How far the front moves before waiting workers are woken: waking them for every buffer any
   * connection writes had each of them take the table's lock thousands of times a second.
   */
  static final long WAKE_STEP = 256L << 10;
  /** Workers waiting in {@link #await} for the front to move. */
  private int waiters;
  /** The front when waiting workers were last woken. */
  private long wokenAt;

  void set(long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("window must be positive, not " + bytes);
    }
    this.bytes = bytes;
  }

  long bytes() {
    return bytes;
  }

  boolean on() {
    return bytes != 0;
  }

  /** The first offset beyond the window; {@link Long#MAX_VALUE} when there is none. */
  long limit(List<Segment> segments) {
    long w = bytes;
    return w == 0 ? Long.MAX_VALUE : front(segments) + w;
  }

  /** Whether {@code s}'s owner stands at or beyond the window, bytes still to write. */
  boolean ahead(Segment s, List<Segment> segments) {
    return s.position < s.end && s.position >= limit(segments);
  }

  /** Whether unfinished bytes lie beyond the window. */
  boolean workBeyond(List<Segment> segments) {
    long limit = limit(segments);
    for (Segment s : segments) {
      if (s.position < s.end && s.end > limit) {
        return true;
      }
    }
    return false;
  }

  /** Waits on {@code lock} (held) up to {@code millis} for the front to move ({@link #wrote}). */
  void await(Object lock, long millis) throws InterruptedException {
    waiters++;
    try {
      lock.wait(millis);
    } finally {
      waiters--;
    }
  }

  /** Bytes were written (under {@code lock}): waiting workers look again once the front moved {@link #WAKE_STEP}. */
  void wrote(Object lock, List<Segment> segments) {
    if (waiters > 0) {
      long front = front(segments);
      if (front - wokenAt >= WAKE_STEP) {
        wokenAt = front;
        lock.notifyAll();
      }
    }
  }

  /** The first byte not written yet (the end of the last segment when every byte is). */
  private static long front(List<Segment> segments) {
    long front = Long.MAX_VALUE;
    long end = 0;
    for (Segment s : segments) {
      if (s.position < s.end) {
        front = Math.min(front, s.position);
      }
      end = Math.max(end, s.end);
    }
    return front == Long.MAX_VALUE ? end : front;
  }
}
