package dev.braid.core.internal.queue;

import dev.braid.core.FailureDetail;
import dev.braid.core.LocalFileException;
import dev.braid.store.ProcessOwner;
import dev.braid.store.QueueEntry;
import java.nio.file.Path;

/**
 * The failure of a download asked for here that another live process drives: only one may drive
 * an entry. One wording wherever the queue finds it.
 */
final class HeldElsewhere {
  private HeldElsewhere() {}

  /** The error for {@code e}, held by its owner. */
  public static LocalFileException of(QueueEntry e) {
    return new LocalFileException(describe(e) + " is being downloaded by another braid process (pid "
        + ProcessOwner.pidOf(e.owner()) + ")", null, FailureDetail.IN_USE);
  }

  /** The part file of {@code e}, or the entry itself before its file is known. */
  static String describe(QueueEntry e) {
    Path f = e.target() != null ? e.target() : e.file();
    return f != null ? f + ".part" : "download #" + e.id() + " (" + e.url() + ")";
  }
}
