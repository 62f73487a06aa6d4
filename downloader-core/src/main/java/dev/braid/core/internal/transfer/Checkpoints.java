package dev.braid.core.internal.transfer;

import dev.braid.core.LocalFileException;

/**
 * What the {@link DriveLoop} makes durable as a pass runs: the part file and its record
 * ({@link PartCommit}), or nothing for a stream, which keeps no record.
 */
interface Checkpoints {
  /** Nothing to record: a stream's bytes leave in order, not to disk. */
  Checkpoints NONE = new Checkpoints() {
    @Override
    public boolean checkpoint(boolean complete) {
      return false;
    }

    @Override
    public boolean recheckPieces() {
      return false;
    }
  };

  /** Records the progress so far ({@code complete}: and marks it done); true when a piece was reopened. */
  boolean checkpoint(boolean complete) throws LocalFileException;

  /** After the workers ran out of work: whether a piece was reopened, so they must run again. */
  boolean recheckPieces() throws LocalFileException;
}
