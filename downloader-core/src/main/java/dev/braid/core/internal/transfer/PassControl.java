package dev.braid.core.internal.transfer;

import dev.braid.core.internal.fetch.TransientFailure;
import dev.braid.core.time.Ticker;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The stop signal of one pass, shared by its driver and workers: whether it is halted (a pause, a
 * fatal error), the first fatal cause, the last transient failure (the error reported when the
 * pass ends short), and the waits before retries, which a halt or {@link #wake()} ends early.
 * Thread-safe; nothing here interrupts a thread.
 */
final class PassControl {
  private final BooleanSupplier pauseRequested;
  /** What the waits before retries measure. */
  private final Ticker ticker;
  private final Object sleeper = new Object();
  private final List<Runnable> onHalt = new CopyOnWriteArrayList<>();
  private volatile boolean halted;
  private volatile Throwable fatal;
  private volatile TransientFailure lastFailure;

  PassControl(BooleanSupplier pauseRequested, Ticker ticker) {
    this.pauseRequested = pauseRequested;
    this.ticker = ticker;
  }

  /** Runs {@code action} on every halt (at once when already halted): aborting exchanges, cancelling a warm-up. */
  void onHalt(Runnable action) {
    onHalt.add(action);
    if (halted) {
      action.run();
    }
  }

  boolean halted() {
    return halted || pauseRequested.getAsBoolean();
  }

  /** Whether the user asked the download to pause (a halt for any other cause says no). */
  boolean pauseRequested() {
    return pauseRequested.getAsBoolean();
  }

  /** Stops every worker: records the first cause, runs the halt actions and wakes those waiting to retry. */
  void halt(Throwable cause) {
    if (cause != null && fatal == null) {
      fatal = cause;
    }
    halted = true;
    onHalt.forEach(Runnable::run);
    wake();
  }

  /** The first cause a halt gave, or null. */
  Throwable fatal() {
    return fatal;
  }

  void noteFailure(TransientFailure f) {
    lastFailure = f;
  }

  /** The last transient failure of any loop of this pass, or null. */
  TransientFailure lastFailure() {
    return lastFailure;
  }

  /** Wakes those waiting to retry so they notice a halt or a retirement. */
  void wake() {
    synchronized (sleeper) {
      sleeper.notifyAll();
    }
  }

  /** Waits up to {@code d}; returns early when halted or when {@code stop} turns true (checked on {@link #wake()}). */
  void sleep(Duration d, BooleanSupplier stop) {
    long deadline = ticker.read() + d.toNanos();
    synchronized (sleeper) {
      long left;
      while (!halted() && !stop.getAsBoolean() && (left = deadline - ticker.read()) > 0) {
        try {
          TimeUnit.NANOSECONDS.timedWait(sleeper, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }
}
