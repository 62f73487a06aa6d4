package dev.braid.core.internal.http;

/**
 * The bytes that the HTTP/2 streams of one client may hold unread, in total: each stream's
 * credit (the window the server may still fill plus what waits in its queue) is drawn from here,
 * so memory is bounded by {@code total}, not by the number of streams times their window. A
 * stream's window grows back only as its worker reads, and only up to its share: {@code total}
 * over the open streams, between the initial window and {@code maxStreamWindow}. A stream that
 * holds more than its share (it opened when fewer streams shared the budget) shrinks as it is
 * read. Every stream starts with the initial window, which the protocol grants whether or not
 * the budget has it: the bound is {@code total} plus the initial window per open stream.
 * Thread-safe; every call is short.
 */
final class WindowBudget {
  private final long total;
  private final int initialWindow;
  private final int maxStreamWindow;
  /** What no stream holds; below 0 when initial windows took more than the budget had. */
  private long free;
  private int streams;

  WindowBudget(long total, int initialWindow, int maxStreamWindow) {
    this.total = total;
    this.initialWindow = initialWindow;
    this.maxStreamWindow = maxStreamWindow;
    this.free = total;
  }

  int initialWindow() {
    return initialWindow;
  }

  /** A stream opens with the initial window as its credit. */
  synchronized void open() {
    streams++;
    free -= initialWindow;
  }

  /** A stream is over: its remaining credit goes back. */
  synchronized void close(long credit) {
    streams--;
    free += credit;
  }

  /**
   * A stream's worker took {@code consumed} bytes, leaving it {@code credit}: returns how much more
   * window the stream may give the server now (0 when it holds its share, or nothing is free).
   */
  synchronized int refill(long credit, int consumed) {
    free += consumed;
    long share = Math.max(initialWindow, Math.min(maxStreamWindow, total / Math.max(1, streams)));
    long grant = Math.max(0, Math.min(share - credit, free));
    free -= grant;
    return (int) grant;
  }
}
