package dev.braid.core.internal.hook;

import dev.braid.core.DownloadHook;
import dev.braid.core.HookEvent;
import dev.braid.core.HookFailure;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Runs hooks off the engine's threads, each within its time bound, and reports the ones that fail.
 *
 * <p>Threads, owned here: {@value #THREADS} hook threads ({@code braid-hook-N}) fed by a queue of
 * at most {@value #QUEUED} hooks (a hook that finds it full is reported as dropped: the caller,
 * Braid's event thread, never waits), and one timer thread ({@code braid-hook-timer}) that
 * interrupts a hook still running a grace second past its bound. {@link #close()} lets running
 * and waiting hooks finish for up to one bound, then interrupts the running ones (a command is
 * killed with its process tree) and reports the waiting ones as dropped.
 */
public final class HookRunner implements AutoCloseable {
  static final int THREADS = 2;
  static final int QUEUED = 256;
  /** A hook bounds itself; the interrupt after this grace stops one that does not. */
  private static final Duration GRACE = Duration.ofSeconds(1);

  private final Duration timeout;
  private final Consumer<HookFailure> failures;
  private final ThreadPoolExecutor hooks;
  private final ScheduledThreadPoolExecutor timer;

  /** Hooks bounded by {@code timeout}; their failures go to {@code failures} (on a hook thread). */
  public HookRunner(Duration timeout, Consumer<HookFailure> failures) {
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    this.failures = Objects.requireNonNull(failures, "failures");
    AtomicInteger n = new AtomicInteger();
    this.hooks = new ThreadPoolExecutor(THREADS, THREADS, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUED), r -> {
      Thread t = new Thread(r, "braid-hook-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    this.timer = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "braid-hook-timer");
      t.setDaemon(true);
      return t;
    });
    timer.setRemoveOnCancelPolicy(true);
  }

  /** Queues each of {@code run} for {@code event}; returns at once. */
  public void submit(HookEvent event, List<DownloadHook> run) {
    for (DownloadHook hook : run) {
      try {
        hooks.execute(new Call(event, hook));
      } catch (RejectedExecutionException e) {
        report(event, hook, hooks.isShutdown() ? "not run: Braid is closing" : "not run: " + QUEUED + " hooks are waiting");
      }
    }
  }

  private void report(HookEvent event, DownloadHook hook, String reason) {
    try {
      failures.accept(new HookFailure(event, hook.toString(), reason));
    } catch (RuntimeException e) {
      // a failing reporter must not end the hook thread
    }
  }

  /** One hook for one event: runs it, interrupting it past its bound, and reports how it failed. */
  private final class Call implements Runnable {
    private final HookEvent event;
    private final DownloadHook hook;
    private Thread runner;
    private boolean overdue;

    Call(HookEvent event, DownloadHook hook) {
      this.event = event;
      this.hook = hook;
    }

    @Override
    public void run() {
      synchronized (this) {
        runner = Thread.currentThread();
      }
      ScheduledFuture<?> alarm = timer.schedule(this::interrupt, timeout.plus(GRACE).toNanos(), TimeUnit.NANOSECONDS);
      String failure = null;
      try {
        hook.run(event, timeout);
      } catch (InterruptedException e) {
        failure = "stopped: it ran past " + timeout.toSeconds() + " s";
      } catch (Exception e) {
        failure = e.getMessage() == null ? e.toString() : e.getMessage();
      } finally {
        alarm.cancel(false);
        synchronized (this) {
          runner = null;
          if (overdue) {
            failure = "stopped: it ran past " + timeout.toSeconds() + " s";
          }
        }
        // an interrupt meant for this hook must not reach the next one on this thread
        Thread.interrupted();
      }
      if (failure != null) {
        report(event, hook, failure);
      }
    }

    private synchronized void interrupt() {
      if (runner != null) {
        overdue = true;
        runner.interrupt();
      }
    }

    @Override
    public String toString() {
      return hook.toString();
    }
  }

  /**
   * Runs no more hooks: those running or waiting get up to one bound to finish; then the running
   * ones are interrupted and the waiting ones reported as not run. Returns within about twice the
   * bound.
   */
  @Override
  public void close() {
    hooks.shutdown();
    try {
      if (!hooks.awaitTermination(timeout.plus(GRACE).toNanos(), TimeUnit.NANOSECONDS)) {
        for (Runnable r : hooks.shutdownNow()) {
          Call c = (Call) r;
          report(c.event, c.hook, "not run: Braid closed");
        }
        hooks.awaitTermination(GRACE.plus(GRACE).toNanos(), TimeUnit.NANOSECONDS);
      }
    } catch (InterruptedException e) {
      hooks.shutdownNow();
      Thread.currentThread().interrupt();
    } finally {
      timer.shutdownNow();
    }
  }
}
