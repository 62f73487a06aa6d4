package dev.braid.cli;

import dev.braid.core.Download;
import java.io.PrintStream;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * What Ctrl-C does to an in-process {@code braid get}, registered with its {@link Caller} (this
 * process: a shutdown hook, whose thread the JVM starts on Ctrl-C or SIGTERM); the command's thread
 * takes it back once its downloads have ended.
 */
final class ShutdownPause {
  private ShutdownPause() {}

  /** Ctrl-C or SIGTERM: stop the connections and record progress before the JVM exits; its registration. */
  static Caller.Registration install(Caller caller, Supplier<Collection<Download>> stop, PrintStream err) {
    return caller.onInterrupt(() -> {
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
    });
  }
}
