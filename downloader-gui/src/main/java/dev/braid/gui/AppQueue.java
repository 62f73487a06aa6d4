package dev.braid.gui;

import java.util.concurrent.Executor;
import java.util.function.BiConsumer;

/**
 * The queue a window drives ({@link ClientQueue}, whichever engine its client reaches): it keeps
 * its work on one background thread and hands what changes to the window as snapshots.
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
