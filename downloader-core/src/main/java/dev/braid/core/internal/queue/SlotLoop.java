package dev.braid.core.internal.queue;

import dev.braid.core.time.Ticker;
import dev.braid.store.QueueStore;
import dev.braid.store.StoreException;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The queue's loop thread, {@code braid-queue}: starts runnable entries while fewer than
 * {@link #maxActive()} run (priority, then submission order, as {@link QueueStore#runnable} gives
 * them), beats the heartbeat every 0.5 s, picks up other processes' changes every second, and
 * delivers every listener event ({@link #bus()}).
 *
 * <p>Threads: this class owns the loop thread. {@link #start()} starts it; {@link #stop()} ends
 * it after the last events went out. An interrupt ends it at once, leaving undelivered events. A
 * store failure or a listener's is swallowed: the loop tries again on the next tick.
 *
 * <p>Locks: {@code signal} guards only the wait and its wake-up; the flags are volatile, written
 * from any thread and read by the loop.
 */
final class SlotLoop {
  static final long TICK_MILLIS = 100;
  /** Queue entries read at a time when looking for work (a few times the usual number of slots). */
  private static final int RUNNABLE_PAGE = 64;
  private static final long HEARTBEAT_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
  private static final long REFRESH_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** What the loop asks of the queue; every method is called on the loop thread. */
  public interface Work {
    /** How many downloads this process runs now. */
    int running();

    /** Starts entry {@code id} if this process should and may run it. */
    void tryStart(long id);

    /** Tells the store how far this process's downloads are, and hears what others asked of them. */
    void heartbeat();

    /** Picks up what other processes changed. */
    void refresh();

    /** The handles whose progress listeners hear. */
    Collection<QueuedDownload> handles();

    /** Applies the queue's schedule to what runs now; whether a run window just opened (something may start). */
    boolean scheduleTick();

    /** Whether the queue's schedule lets downloads start now (inside a run window, or no windows). */
    boolean allowsStarts();
  }

  private final QueueStore table;
  private final Work work;
  /** What the heartbeat's and the refresh's cadence, and progress events, measure. */
  private final Ticker ticker;
  private final Object signal = new Object();
  private final ListenerBus bus = new ListenerBus(this::wake);
  private final Thread thread;
  /** Changed live by {@link #maxActive(int)}; read by the loop each time it looks for work. */
  private volatile int maxActive;
  /** Something may start: the loop looks at its next turn rather than at its next refresh. */
  private volatile boolean dirty = true;
  private volatile boolean closing;
  private volatile boolean stopped;

  public SlotLoop(QueueStore table, int maxActive, Ticker ticker, Work work) {
    this.table = table;
    this.ticker = ticker;
    this.maxActive = maxActive;
    this.work = work;
    this.thread = new Thread(this::loop, "braid-queue");
    thread.setDaemon(true);
  }

  /** Starts the loop thread; once. */
  public void start() {
    thread.start();
  }

  /** Where the queue's listeners and events are. */
  public ListenerBus bus() {
    return bus;
  }

  /** Something may start now (an entry was queued, a slot freed): the loop looks at once. Any thread. */
  public void changed() {
    dirty = true;
    wake();
  }

  /** A new limit of downloads at once: more start at once; a lower one lets the running ones finish. */
  public void maxActive(int n) {
    maxActive = n;
    changed();
  }

  public int maxActive() {
    return maxActive;
  }

  /** Starts nothing more, for good (the queue closes). Any thread. */
  public void close() {
    closing = true;
  }

  /** Whether the queue closes: nothing more starts, and a run's pause leaves its entry queued. */
  public boolean closing() {
    return closing;
  }

  /** Ends the loop thread after the last events went out; waits for it up to 2 s. */
  public void stop() {
    stopped = true;
    wake();
    try {
      thread.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void wake() {
    synchronized (signal) {
      signal.notifyAll();
    }
  }

  private void loop() {
    long nextHeartbeat = 0;
    long nextRefresh = 0;
    while (!stopped) {
      try {
        long now = ticker.read();
        if (work.scheduleTick()) {
          dirty = true;
        }
        if (!closing && (dirty || now >= nextRefresh) && work.running() < maxActive) {
          dirty = false;
          startWhatFits();
        }
        if (now >= nextHeartbeat) {
          work.heartbeat();
          nextHeartbeat = now + HEARTBEAT_NANOS;
        }
        if (now >= nextRefresh) {
          work.refresh();
          nextRefresh = now + REFRESH_NANOS;
        }
        bus.drain();
        bus.sendProgress(now, work::handles);
      } catch (StoreException e) {
        // the store is busy or failing (another process holds it): try again on the next tick
      } catch (RuntimeException e) {
        // a listener failed: it must not stop the queue for everyone else
      }
      synchronized (signal) {
        // new entries with every slot taken are work for later: the end of a download wakes
        // the loop (waiting on dirty alone spun a core through a whole batch)
        boolean canStart = dirty && !closing && work.running() < maxActive;
        if (!stopped && !bus.hasEvents() && !canStart) {
          try {
            signal.wait(TICK_MILLIS);
          } catch (InterruptedException e) {
            return;
          }
        }
      }
    }
    bus.drain();
  }

  /**
   * Starts runnable entries while slots are free. It runs each time a download ends, so it reads
   * the queue a page at a time: reading all of a 1,000-file batch every time made a batch
   * quadratic (the queue thread was ~20 % of the CPU of `get -i` with 1,000 small files).
   */
  private void startWhatFits() {
    if (!work.allowsStarts()) {
      return;
    }
    for (int offset = 0; work.running() < maxActive && !closing; offset += RUNNABLE_PAGE) {
      List<Long> page = table.runnable(RUNNABLE_PAGE, offset);
      for (long id : page) {
        if (work.running() >= maxActive || closing) {
          return;
        }
        work.tryStart(id);
      }
      if (page.size() < RUNNABLE_PAGE) {
        return;
      }
    }
  }
}
