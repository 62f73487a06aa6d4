package dev.braid.cli;

import dev.braid.core.Download;
import java.io.PrintStream;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The shutdown hook of an in-process {@code braid get}. The hook's thread is the JVM's to start (on
 * Ctrl-C or SIGTERM); the command's thread removes it once its downloads have ended.
 */
final class ShutdownPause {
  private ShutdownPause() {}

  /** Ctrl-C or SIGTERM: stop the connections and record progress before the JVM exits. */
  static Thread install(Supplier<Collection<Download>> stop, PrintStream err) {
    Thread hook = new Thread(() -> {
      Collection<Download> batch = stop.get();
      batch.forEach(Download::pause);
      try {
        for (Download d : batch) {
          d.result().handle((r, e) -> null).get(10, TimeUnit.SECONDS);
        }
        if (err != null) {
          err.println();
          err.println("braid: interrupted; progress is saved, run the same command to resume");
        }
      } catch (Exception ignored) {
        // exiting anyway: whatever was recorded last is still a resumable state
      }
    }, "braid-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    return hook;
  }

  /** Takes back a hook of {@link #install} once its downloads have ended on their own. */
  static void remove(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the hook is already running and will finish the pause
    }
  }
}
