package dev.braid.core;

import dev.braid.store.DownloadState;

/**
 * Hears about downloads. Called on Braid's one event thread, never on a caller's thread: keep
 * the work short (hand it to a UI thread or a queue), as every listener waits for the one before.
 */
public interface DownloadListener {
  /**
   * The download moved to {@code state}. The end of a run of this {@code Braid} ({@code COMPLETED},
   * {@code FAILED}, {@code PAUSED}) is told once the run let go of it: its {@link Download#result()}
   * is done and a {@link Download#resume()} takes effect.
   *
   * @param download the download
   * @param state its new state
   */
  default void stateChanged(Download download, DownloadState state) {}

  /**
   * A progress sample of a download that is running, at the rate the listener asked for.
   *
   * @param download the download
   * @param progress the sample
   */
  default void progress(Download download, Progress progress) {}

  /**
   * The download left the queue (removed or cancelled).
   *
   * @param download the download
   */
  default void removed(Download download) {}
}
