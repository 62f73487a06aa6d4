package dev.braid.rpc;

/**
 * Calls run on Undertow's worker pool, which would only log an {@link OutOfMemoryError} and go
 * on with a heap that may no longer serve anyone. A call's task wrapped here hands it instead to
 * its thread's uncaught-exception handler, as if it had ended the thread: the process decides (a
 * daemon exits, so that its supervisor starts it again; see {@code braid daemon}).
 */
final class OutOfMemory {
  private OutOfMemory() {}

  /** {@code task}, with an {@link OutOfMemoryError} it throws reported to the thread's handler rather than the pool. */
  static Runnable reported(Runnable task) {
    return () -> {
      try {
        task.run();
      } catch (OutOfMemoryError e) {
        Thread t = Thread.currentThread();
        t.getUncaughtExceptionHandler().uncaughtException(t, e);
      }
    };
  }
}
