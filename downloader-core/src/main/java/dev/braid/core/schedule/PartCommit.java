package dev.braid.core.schedule;

import dev.braid.core.Checksum;
import dev.braid.core.IntegrityException;
import dev.braid.core.LocalFileException;
import dev.braid.core.fetch.RangeRequest;
import dev.braid.core.io.PartFile;
import dev.braid.core.plan.SegmentTable;
import dev.braid.core.verify.FileDigest;
import dev.braid.store.DownloadStatus;
import dev.braid.store.RemoteIdentity;
import dev.braid.store.ResumeRecords;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * What a pass makes durable, on the driver thread: checkpoints of the part file into its store
 * record (force first, then record: invariant 1), the checksum check, and the final rename with
 * the record marked complete.
 */
final class PartCommit {
  private final ResumeRecords store;
  private final PartFile part;
  private final ResumePlan plan;
  /** The last checkpoint marked the record complete: every byte done and forced, nothing left to verify. */
  private boolean recordedComplete;

  PartCommit(ResumeRecords store, PartFile part, ResumePlan plan) {
    this.store = store;
    this.part = part;
    this.plan = plan;
  }

  /**
   * Forces the data, then records the progress snapshot taken before the force, and with
   * {@code complete} marks the record complete in the same transaction.
   */
  void checkpoint(boolean complete) throws LocalFileException {
    SegmentTable table = plan.table();
    var snapshot = table.snapshot();
    Map<Integer, Integer> finished;
    try {
      part.force();
      finished = plan.sums() == null ? Map.of() : plan.sums().update(part, snapshot);
    } catch (IOException e) {
      throw new LocalFileException("cannot flush " + part.path() + ": " + RangeRequest.describe(e), e);
    }
    if (complete) {
      store.complete(plan.recordId(), snapshot, finished);
      recordedComplete = true;
    } else {
      store.checkpoint(plan.recordId(), snapshot, finished);
    }
  }

  /**
   * Checks the whole part file against the expected digest before it gets its final name. On a
   * mismatch the part file stays for inspection, and its record starts from zero, so running the
   * download again fetches it afresh rather than trusting the same bytes.
   */
  void verify(Checksum expected, RemoteIdentity identity, long minSplitSize) throws LocalFileException,
      IntegrityException {
    String actual;
    try {
      part.force();
      actual = FileDigest.hex(part.path(), expected.algorithm());
    } catch (IOException e) {
      throw new LocalFileException("cannot read " + part.path() + " to verify it: " + RangeRequest.describe(e), e);
    }
    if (!actual.equals(expected.hex())) {
      store.repair(plan.recordId(), SegmentTable.fresh(identity.length(), identity.ranges(), minSplitSize).snapshot(),
          Map.of());
      throw new IntegrityException(expected.algorithm() + " checksum mismatch: expected " + expected.hex() + ", got "
          + actual + "; the bytes are kept in " + part.path());
    }
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
      store.markStatus(plan.recordId(), DownloadStatus.COMPLETED, null);
    }
  }
}
