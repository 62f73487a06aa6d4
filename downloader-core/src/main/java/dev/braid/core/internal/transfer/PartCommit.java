package dev.braid.core.internal.transfer;

import dev.braid.core.Checksum;
import dev.braid.core.FailureDetail;
import dev.braid.core.IntegrityException;
import dev.braid.core.LocalFileException;
import dev.braid.core.internal.fetch.RangeRequest;
import dev.braid.core.internal.io.PartFile;
import dev.braid.core.internal.plan.SegmentTable;
import dev.braid.store.DownloadState;
import dev.braid.store.RemoteIdentity;
import dev.braid.store.ResumeRecords;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a pass makes durable, on the driver thread: checkpoints of the part file into its store
 * record (force first, then record: invariant 1), the checksum check, and the final rename with
 * the record marked complete.
 */
final class PartCommit implements Checkpoints {
  private final ResumeRecords store;
  private final PartFile part;
  private final ResumePlan plan;
  /** Checks piece hashes after each force; null without them. */
  private final PieceGuard pieces;
  /** The last checkpoint marked the record complete: every byte done and forced, nothing left to verify. */
  private boolean recordedComplete;

  PartCommit(ResumeRecords store, PartFile part, ResumePlan plan, PieceGuard pieces) {
    this.store = store;
    this.part = part;
    this.plan = plan;
    this.pieces = pieces;
  }

  /**
   * Forces the data, then records the progress snapshot taken before the force, and with
   * {@code complete} marks the record complete in the same transaction. With piece hashes, the
   * pieces the forced progress completes are checked first; when one fails, its bytes leave the
   * table, their block sums are forgotten, and the record is repaired instead (nothing marked
   * complete). Returns whether a piece was reopened.
   */
  @Override
  public boolean checkpoint(boolean complete) throws LocalFileException {
    SegmentTable table = plan.table();
    var snapshot = table.snapshot();
    Map<Integer, Integer> finished;
    try {
      part.force();
      finished = plan.sums() == null ? Map.of() : plan.sums().update(part, snapshot);
      List<long[]> bad = pieces == null ? List.of() : pieces.check(part, snapshot);
      if (!bad.isEmpty()) {
        if (plan.sums() != null) {
          bad.forEach(r -> plan.sums().forget(r[0], r[1]));
        }
        repairAfterBadPieces();
        return true;
      }
    } catch (IOException e) {
      throw new LocalFileException("cannot flush " + part.path() + ": " + RangeRequest.describe(e), e,
          part.outOfSpace() ? FailureDetail.DISK_FULL : FailureDetail.NONE);
    }
    if (complete) {
      store.complete(plan.recordId(), snapshot, finished);
      recordedComplete = true;
    } else {
      store.checkpoint(plan.recordId(), snapshot, finished);
    }
    return false;
  }

  /**
   * After the workers ran out of work: checks the last pieces (a checkpoint) and returns whether
   * one was reopened, so the workers must run again. False without piece hashes or once halted.
   */
  @Override
  public boolean recheckPieces() throws LocalFileException {
    return pieces != null && pieces.active() && checkpoint(false);
  }

  /**
   * Records the table without the reopened pieces: a new snapshot (bytes may have arrived since
   * the first), forced before it is recorded, with only the block sums still valid.
   */
  private void repairAfterBadPieces() throws IOException {
    var again = plan.table().snapshot();
    part.force();
    Map<Integer, Integer> valid = Map.of();
    if (plan.sums() != null) {
      plan.sums().update(part, again);
      valid = plan.sums().known();
    }
    store.repair(plan.recordId(), again, valid);
  }

  /**
   * Checks the whole part file against the expected digest before it gets its final name. On a
   * mismatch the part file stays for inspection, and its record starts from zero, so running the
   * download again fetches it afresh rather than trusting the same bytes.
   *
   * @param what what the digest is, for the message: {@code checksum} for the request's own
   */
  void verify(Checksum expected, String what, RemoteIdentity identity, long minSplitSize) throws LocalFileException,
      IntegrityException {
    String actual;
    try {
      part.force();
      actual = Checksum.of(part.path(), expected.algorithm()).hex();
    } catch (IOException e) {
      throw new LocalFileException("cannot read " + part.path() + " to verify it: " + RangeRequest.describe(e), e);
    }
    if (!actual.equals(expected.hex())) {
      startOver(identity, minSplitSize);
      throw new IntegrityException(expected.algorithm() + " " + what + " mismatch: expected " + expected.hex() + ", got "
          + actual + "; the bytes are kept in " + part.path(), null, FailureDetail.CHECKSUM);
    }
  }

  /**
   * Records nothing done: bytes the pass found wrong stay in the part file, and the next pass
   * fetches every byte again rather than trusting them.
   */
  void startOver(RemoteIdentity identity, long minSplitSize) {
    store.repair(plan.recordId(), SegmentTable.fresh(identity.length(), identity.ranges(), minSplitSize).snapshot(),
        Map.of());
  }

  /**
   * Gives the part file its final name and marks the record complete, unless the last checkpoint
   * already did. That checkpoint forced every byte before recording them; the rename is not
   * forced: a power cut that undoes it leaves a complete part file, which the planner resumes.
   */
  void commitTo(Path target, boolean overwrite) throws LocalFileException {
    try {
      part.commitTo(target, overwrite);
    } catch (IOException e) {
      throw new LocalFileException("cannot rename " + part.path() + " to " + target + ": " + RangeRequest.describe(e), e);
    }
    if (!recordedComplete) {
      store.markStatus(plan.recordId(), DownloadState.COMPLETED, null);
    }
  }
}
