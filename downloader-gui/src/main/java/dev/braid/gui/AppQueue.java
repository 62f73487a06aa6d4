package dev.braid.gui;

import java.util.concurrent.Executor;
import java.util.function.BiConsumer;

/**
 * The queue a window drives: the app's own engine ({@link BraidQueue}) or a running
 * {@code braid daemon}'s ({@link DaemonQueue}). Both keep their work on one background thread
 * and hand what changes to the window as snapshots.
 */
interface AppQueue extends QueueActions, AutoCloseable {
  /** Where failures of actions are told (title, text); called on the background thread. */
  void onProblem(BiConsumer<String, String> sink);

  /** The background thread, for other work the window must keep off the FX thread. */
  Executor background();

  /** Stops the background thread and lets go of the engine (blocking). */
  @Override
  void close();
}
