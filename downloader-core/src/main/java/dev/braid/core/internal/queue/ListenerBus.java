package dev.braid.core.internal.queue;

import dev.braid.core.Download;
import dev.braid.core.DownloadListener;
import dev.braid.core.Registration;
import dev.braid.store.DownloadState;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The listeners of one queue and the events waiting for them. Events are posted from any thread
 * and delivered in order on the loop thread alone ({@link SlotLoop}), so that no listener is
 * called from a download's threads or twice at once. A listener that throws is skipped; the
 * others still hear. An event may wait to be ready (a run's end, for its result), holding back
 * those after it, so that the order stays the order of posting.
 *
 * <p>Locks: none; the subscribers are a copy-on-write list, the events a concurrent queue, and a
 * subscriber's next progress time is read and written by the loop thread only.
 */
final class ListenerBus {
  private static final BooleanSupplier READY = () -> true;
  private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
  private final ConcurrentLinkedQueue<Event> events = new ConcurrentLinkedQueue<>();
  private final Runnable wake;

  /** @param wake wakes the loop thread that delivers the events */
  ListenerBus(Runnable wake) {
    this.wake = wake;
  }

  /**
   * Adds {@code l}, for the download {@code only} or (null) for all, hearing progress every
   * {@code every} but no more often than the loop ticks. Any thread.
   */
  public Registration listen(Download only, DownloadListener l, Duration every) {
    Subscriber s = new Subscriber(only, l, Math.max(TimeUnit.MILLISECONDS.toNanos(SlotLoop.TICK_MILLIS), every.toNanos()));
    subscribers.add(s);
    return () -> subscribers.remove(s);
  }

  /** Tells the listeners that {@code h} is in state {@code s} now. Any thread. */
  public void stateChanged(Download h, DownloadState s) {
    stateChanged(h, s, READY);
  }

  /**
   * Tells the listeners that {@code h} is in state {@code s}, in its place among the events posted,
   * but not before {@code ready} holds: this event, and every one posted after it, waits for it
   * (a run's end waits for its result). Whoever makes {@code ready} true wakes the loop. Any thread.
   */
  void stateChanged(Download h, DownloadState s, BooleanSupplier ready) {
    post(new Event(() -> subscribers.forEach(sub -> sub.stateChanged(h, s)), ready));
  }

  /** Tells the listeners that {@code h} left the queue. Any thread. */
  public void removed(Download h) {
    post(new Event(() -> subscribers.forEach(sub -> sub.removed(h)), READY));
  }

  private void post(Event event) {
    events.add(event);
    wake.run();
  }

  /** Whether an event can go out now. */
  boolean hasEvents() {
    Event next = events.peek();
    return next != null && next.ready.getAsBoolean();
  }

  /** Delivers, in order, every event posted so far, up to the first not ready yet. Loop thread. */
  void drain() {
    // the loop thread alone takes events out, so the head it peeked is the one it polls
    Event next;
    while ((next = events.peek()) != null && next.ready.getAsBoolean()) {
      events.poll();
      try {
        next.tell.run();
      } catch (RuntimeException e) {
        // one listener's failure must not keep the others from hearing
      }
    }
  }

  /** What the listeners are told, once {@code ready} holds. */
  private record Event(Runnable tell, BooleanSupplier ready) {}

  /**
   * Tells each listener whose time has come the progress of the active downloads among {@code
   * handles}, read only then: the loop turns at every event, and copying every handle held (a
   * batch's queued entries too) at each turn was two thirds of a daemon's queue thread. Loop thread.
   */
  void sendProgress(long now, Supplier<? extends Collection<? extends Download>> handles) {
    Collection<? extends Download> held = null;
    for (Subscriber s : subscribers) {
      if (now < s.nextDue) {
        continue;
      }
      s.nextDue = now + s.everyNanos;
      if (held == null) {
        held = handles.get();
      }
      for (Download h : held) {
        if (h.state() == DownloadState.ACTIVE && (s.only == null || s.only == h)) {
          s.progress(h);
        }
      }
    }
  }

  /** A listener with its progress rate, and for one download or all. */
  private static final class Subscriber {
    final Download only;
    final DownloadListener listener;
    final long everyNanos;
    long nextDue;

    Subscriber(Download only, DownloadListener listener, long everyNanos) {
      this.only = only;
      this.listener = listener;
      this.everyNanos = everyNanos;
    }

    void stateChanged(Download h, DownloadState s) {
      if (only == null || only == h) {
        listener.stateChanged(h, s);
      }
    }

    void progress(Download h) {
      listener.progress(h, h.progress());
    }

    void removed(Download h) {
      if (only == null || only == h) {
        listener.removed(h);
      }
    }
  }
}
