package dev.braid.client;

import dev.braid.core.Braid;
import dev.braid.core.Download;
import java.util.concurrent.CompletableFuture;

/**
 * When an event of a download may be told: the engine announces a run's end before the run has
 * let go of the download (its result, the run's figures, a resume that works), so the end of a
 * run of this engine is told once its result is there. A face that reads the download on
 * hearing it then sees what the run did, in-process as through a daemon.
 */
public final class RunEnds {
  private static final CompletableFuture<Void> NOW = CompletableFuture.completedFuture(null);

  private RunEnds() {}

  /**
   * {@return done when {@code kind} of {@code d} may be told: at once, unless it is the end of a
   * run of {@code braid}'s whose result is still to come}
   *
   * @param braid the engine that reported it
   * @param d the download
   * @param kind what happened
   */
  public static CompletableFuture<?> told(Braid braid, Download d, DownloadEvent.Kind kind) {
    boolean end = kind == DownloadEvent.Kind.COMPLETED || kind == DownloadEvent.Kind.FAILED;
    if (!end || d.result().isDone() || !braid.running().contains(d)) {
      return NOW;
    }
    return d.result().handle((r, e) -> null);
  }
}
