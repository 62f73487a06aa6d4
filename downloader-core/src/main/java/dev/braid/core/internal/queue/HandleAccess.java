package dev.braid.core.internal.queue;

import dev.braid.core.Download;
import dev.braid.store.DownloadState;
import dev.braid.store.EntryProgress;
import dev.braid.store.QueueEntry;

/**
 * What the queue's parts do to a download handle whose fields are package-private to
 * {@code dev.braid.core}, where {@link Download} lives; implemented there by the queue. Public
 * only because of that package boundary (Java has no cross-package privacy): not API. Every
 * method may be called on any thread; the handle's fields are volatile.
 */
public interface HandleAccess {
  /** The entry of {@code h} as last read. */
  QueueEntry entry(Download h);

  /** Records {@code e} as the entry of {@code h} now. */
  void entry(Download h, QueueEntry e);

  /** Stops the run of {@code h}: as a pause someone asked for, or, with {@code removing}, as its removal. */
  void stopRun(Download h, boolean removing);

  /** How far the run of {@code h} is, for the store. */
  EntryProgress progress(Download h);

  /** Sets the state of {@code h} and tells the listeners. */
  void transition(Download h, DownloadState s);
}
