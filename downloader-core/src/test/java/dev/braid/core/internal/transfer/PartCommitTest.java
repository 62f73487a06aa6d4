package dev.braid.core.internal.transfer;

import dev.braid.core.time.Ticker;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.Checksum;
import dev.braid.core.IntegrityException;
import dev.braid.core.internal.io.PartFile;
import dev.braid.core.internal.plan.SegmentTable;
import dev.braid.core.internal.verify.BlockSums;
import dev.braid.store.DownloadState;
import dev.braid.store.RemoteIdentity;
import dev.braid.store.ResumeRecords;
import dev.braid.store.SegmentRecord;
import dev.braid.store.StateStore;
import dev.braid.store.StoreLocation;
import dev.braid.testserver.Content;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a pass makes durable, against a real SQLite store and a real part file. */
class PartCommitTest {
  private static final int LENGTH = 48 << 10;
  private static final RemoteIdentity REMOTE = new RemoteIdentity("http://127.0.0.1:9/f", LENGTH, "\"c\"", null, true);
  private final Content content = Content.random(LENGTH, 5);

  @TempDir Path dir;
  private StateStore store;
  private ResumeRecords records;
  private PartFile part;
  private Path target;
  private long id;

  @BeforeEach
  void start() throws Exception {
    store = StoreLocation.open(dir.resolve("state.db").toString());
    records = store.records();
    target = dir.resolve("f.bin");
    part = PartFile.open(dir.resolve("f.bin.part"));
    part.reset(LENGTH);
    id = records.create(REMOTE.finalUrl(), target, REMOTE, List.of(new SegmentRecord(0, LENGTH, 0)));
  }

  @AfterEach
  void stop() throws Exception {
    part.close();
    store.close();
  }

  /** A commit of a pass whose table has {@code done} bytes done, those bytes written. */
  private PartCommit commitWith(int done) throws Exception {
    part.write(ByteBuffer.wrap(StageParts.bytes(content, 0, done)), 0);
    SegmentTable table = SegmentTable.restore(List.of(new SegmentRecord(0, LENGTH, done)), 1 << 10, Ticker.SYSTEM);
    return new PartCommit(records, part, new ResumePlan(table, id, 0, new BlockSums(LENGTH, Map.of())), null);
  }

  private static String sha256(byte[] bytes) throws Exception {
    return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
  }

  @Test
  void aCheckpointRecordsTheProgressWithoutMarkingItComplete() throws Exception {
    assertFalse(commitWith(LENGTH / 2).checkpoint(false), "no piece hashes: nothing reopened");
    assertEquals(List.of(new SegmentRecord(0, LENGTH, LENGTH / 2)), records.segments(id));
    assertNotEquals(DownloadState.COMPLETED, records.find(id).orElseThrow().status());
  }

  @Test
  void theLastCheckpointCanMarkTheRecordCompleteBeforeTheRename() throws Exception {
    PartCommit commit = commitWith(LENGTH);
    commit.checkpoint(true);
    assertEquals(DownloadState.COMPLETED, records.find(id).orElseThrow().status());
    assertEquals(1, records.blockSums(id).size(), "the file's one block is summed");
    commit.commitTo(target, false);
    assertArrayEquals(StageParts.bytes(content, 0, LENGTH), Files.readAllBytes(target));
    assertFalse(Files.exists(dir.resolve("f.bin.part")));
  }

  @Test
  void theRenameMarksTheRecordCompleteWhenNoCheckpointDid() throws Exception {
    PartCommit commit = commitWith(LENGTH);
    commit.checkpoint(false);
    commit.commitTo(target, false);
    assertEquals(DownloadState.COMPLETED, records.find(id).orElseThrow().status());
  }

  @Test
  void aChecksumMismatchKeepsTheBytesAndRecordsNothingDone() throws Exception {
    PartCommit commit = commitWith(LENGTH);
    commit.checkpoint(false);
    Checksum other = new Checksum("sha-256", sha256(new byte[1]));
    IntegrityException e = assertThrows(IntegrityException.class, () -> commit.verify(other, "checksum", REMOTE, 1 << 20));
    assertTrue(e.getMessage().contains("checksum mismatch"), e.getMessage());
    assertEquals(List.of(new SegmentRecord(0, LENGTH, 0)), records.segments(id), "the next run fetches it afresh");
    assertTrue(Files.exists(dir.resolve("f.bin.part")), "kept for inspection");

    commit.verify(new Checksum("sha-256", sha256(StageParts.bytes(content, 0, LENGTH))), "checksum", REMOTE, 1 << 20);
  }
}
