package dev.braid.core.internal.http;

import org.apache.hc.core5.http.nio.CapacityChannel;

/**
 * One HTTP/2 stream's share of its client's {@link WindowBudget}: its credit (the window the
 * server may still fill plus the bytes queued unread), the window it earned but could not give
 * back yet, and whether it still holds anything. It only counts; the window updates it asks for
 * are sent by the caller through the returned {@link CapacityChannel}, after every lock is let go,
 * as an update may run the reactor's code.
 *
 * <p>Threads: the reactor calls {@link #channelArrived} and {@link #drainChannel}; the worker
 * {@link #taken} and {@link #windowOpen}; {@link #released}, {@link #release} and an abort's
 * {@link #drain} come from either, or from the thread that aborts. Every field is guarded by this
 * object's monitor. Lock order: the {@link StreamQueue}'s lock, then this monitor, then the
 * budget's; nothing here calls out to anything else, so no lock is ever taken the other way round.
 */
final class StreamCredit {
  private final WindowBudget budget;
  /** Guarded by this. Null until the reactor handed the stream its channel. */
  private CapacityChannel capacity;
  /** Guarded by this. Window earned but not given back yet (no channel so far); part of {@link #credit}. */
  private int unreturned;
  /** Guarded by this. What the stream holds of the budget. */
  private long credit;
  /** Guarded by this. Set once the credit went back to the budget; the stream holds nothing from then on. */
  private boolean released;
  /** Guarded by this. After an abort that chose to drain: data still arriving is dropped and its window given back. */
  private boolean draining;

  /** Opens the stream in {@code budget} with the initial window, which the protocol grants anyway. */
  StreamCredit(WindowBudget budget) {
    this.budget = budget;
    budget.open();
    credit = budget.initialWindow();
  }

  /**
   * The reactor handed over the stream's channel: returns the window to give back through it
   * now, only what the worker's reads earned (a stream nobody reads keeps its initial window).
   */
  synchronized int channelArrived(CapacityChannel channel) {
    capacity = channel;
    int give = unreturned;
    unreturned = 0;
    return give;
  }

  /**
   * The worker took {@code n} bytes off the queue: returns the channel to grow the window by
   * {@link Grant#bytes}, up to the stream's share of the budget (no channel, or 0 bytes, when
   * there is nothing to send now; without a channel the grant waits in {@link #unreturned}).
   */
  synchronized Grant taken(int n) {
    if (released || n <= 0) {
      return Grant.NONE;
    }
    credit -= n;
    int give = budget.refill(credit, n);
    credit += give;
    if (capacity == null) {
      unreturned += give;
      return Grant.NONE;
    }
    return new Grant(capacity, give);
  }

  /** Whether the server may still send on this stream: a silent connection then is a stalled one. */
  synchronized boolean windowOpen() {
    return credit - unreturned > 0;
  }

  /**
   * Whether a body of {@code declaredLength} can still arrive whole: without a channel no window
   * can be given back, so only a body within the first window does.
   */
  synchronized boolean canArriveWhole(long declaredLength) {
    return capacity != null || declaredLength <= budget.initialWindow();
  }

  /**
   * An abort lets the rest of the body in to be dropped: returns the channel to give back the
   * window of the {@code queued} bytes that will never be read, and of what was earned unsent.
   */
  synchronized Grant drain(int queued) {
    draining = true;
    Grant g = new Grant(capacity, queued + unreturned);
    unreturned = 0;
    return g;
  }

  /** The channel to give a dropped DATA frame's window back through, once draining; else null. */
  synchronized CapacityChannel drainChannel() {
    return draining ? capacity : null;
  }

  synchronized boolean released() {
    return released;
  }

  /** The stream is over: its credit goes back to the budget, once. Returns whether this call did it. */
  synchronized boolean release() {
    if (released) {
      return false;
    }
    released = true;
    budget.close(credit);
    credit = 0;
    return true;
  }

  /** Window to give the server through {@code channel}, which is null when there is none to give it through. */
  record Grant(CapacityChannel channel, int bytes) {
    static final Grant NONE = new Grant(null, 0);

    boolean any() {
      return channel != null && bytes > 0;
    }
  }
}
