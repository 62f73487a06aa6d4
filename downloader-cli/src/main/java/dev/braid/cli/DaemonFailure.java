package dev.braid.cli;

import java.io.PrintStream;

/**
 * What ends {@code braid daemon} when one of its threads dies of an uncaught throwable (the
 * queue's loop, the RPC's I/O thread, a relayed command...) or a call runs out of memory: one
 * {@code braid: fatal:} line and exit {@link ExitCode#ENGINE_FAILED} at once, without the
 * shutdown hooks. A daemon limping on with a dead thread or an exhausted heap answers nothing and
 * runs nothing; a supervisor (systemd's {@code Restart=on-failure}) starts it again, and the
 * queue resumes from its recorded progress (recorded every 0.5 s).
 *
 * <p>Threads: the handler runs on the dying thread. It halts the JVM even if printing fails (the
 * heap may be full): the stop must not wait for anything.
 */
final class DaemonFailure implements Thread.UncaughtExceptionHandler {
  private final PrintStream err;

  private DaemonFailure(PrintStream err) {
    this.err = err;
  }

  /** Makes every thread of this JVM without a handler of its own end the process when it dies. */
  static void install(PrintStream err) {
    Thread.setDefaultUncaughtExceptionHandler(new DaemonFailure(err));
  }

  @Override
  public void uncaughtException(Thread t, Throwable e) {
    try {
      StackTraceElement[] at = e.getStackTrace();
      err.println("braid: fatal: thread " + t.getName() + " died of " + e + (at.length > 0 ? " at " + at[0] : "")
          + "; the daemon exits with " + ExitCode.ENGINE_FAILED + " (a supervisor restarts it; the queue resumes"
          + " from its recorded progress)");
      err.flush();
    } finally {
      Runtime.getRuntime().halt(ExitCode.ENGINE_FAILED);
    }
  }
}
