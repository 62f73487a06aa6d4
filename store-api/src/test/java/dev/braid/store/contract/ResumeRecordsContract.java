package dev.braid.store.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.store.DownloadRecord;
import dev.braid.store.DownloadState;
import dev.braid.store.RemoteIdentity;
import dev.braid.store.ResumeRecords;
import dev.braid.store.SegmentRecord;
import dev.braid.store.StateStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link ResumeRecords}: each download's remote identity, segments and block sums, as the next
 * run (of this process or another, after a restart) finds them.
 */
public interface ResumeRecordsContract extends StoreContract {
  /** What a server said about a file. */
  RemoteIdentity REMOTE = new RemoteIdentity("http://h/f", 100, "\"e\"", "Mon, 30 Nov 2026 07:00:00 GMT", true);

  @Test
  default void aCheckpointReplacesTheSegmentsAndAnotherProcessFindsThemByTarget() throws Exception {
    StateStore store = stores().open();
    Path target = DIR.resolve("f.bin");
    long id = store.records().create("http://h/f", target, REMOTE, List.of(new SegmentRecord(0, 100, 0)));
    store.records().checkpoint(id, List.of(new SegmentRecord(0, 50, 50), new SegmentRecord(50, 100, 10)), Map.of(0, 7));
    store.close();
    ResumeRecords later = stores().another(store).records();
    DownloadRecord r = later.findByTarget(target).orElseThrow();
    assertEquals(new DownloadRecord(id, "http://h/f", target, REMOTE, DownloadState.ACTIVE, null), r);
    assertEquals(List.of(new SegmentRecord(0, 50, 50), new SegmentRecord(50, 100, 10)), later.segments(id));
    assertEquals(Map.of(0, 7), later.blockSums(id));
    assertTrue(later.findByTarget(DIR.resolve("other.bin")).isEmpty());
  }

  @Test
  default void aNewRecordForTheSameTargetReplacesTheEarlierWithItsSegmentsAndSums() throws Exception {
    ResumeRecords records = stores().open().records();
    Path target = DIR.resolve("f.bin");
    long first = records.create("http://h/f", target, REMOTE, List.of(new SegmentRecord(0, 100, 30)));
    records.checkpoint(first, List.of(new SegmentRecord(0, 100, 100)), Map.of(0, 7));
    long second = records.create("http://h/f", target, REMOTE, List.of(new SegmentRecord(0, 100, 0)));
    assertTrue(records.find(first).isEmpty());
    // the earlier record's segments and sums go with it: left behind, nothing would remove them
    assertEquals(List.of(), records.segments(first));
    assertEquals(Map.of(), records.blockSums(first));
    assertEquals(Map.of(), records.blockSums(second));
    assertEquals(List.of(new SegmentRecord(0, 100, 0)), records.segments(second));
    assertEquals(List.of(second), records.list().stream().map(DownloadRecord::id).toList());
  }

  @Test
  default void theLastCheckpointRecordsProgressSumsAndCompletionTogether() throws Exception {
    StateStore store = stores().open();
    ResumeRecords records = store.records();
    long id = records.create("http://h/f", DIR.resolve("f"), REMOTE, List.of(new SegmentRecord(0, 100, 0)));
    records.markStatus(id, DownloadState.FAILED, "an earlier pass failed");
    // CRC32C values use all 32 bits: one above Integer.MAX_VALUE reads back as the same int
    records.complete(id, List.of(new SegmentRecord(0, 100, 100)), Map.of(0, 42, 1, 0xDEADBEEF));
    ResumeRecords later = stores().another(store).records();
    DownloadRecord r = later.find(id).orElseThrow();
    assertEquals(DownloadState.COMPLETED, r.status());
    assertEquals(null, r.error());
    assertEquals(List.of(new SegmentRecord(0, 100, 100)), later.segments(id));
    assertEquals(Map.of(0, 42, 1, 0xDEADBEEF), later.blockSums(id));
  }

  @Test
  default void aRepairKeepsOnlyTheSumsStillValid() throws Exception {
    ResumeRecords records = stores().open().records();
    long id = records.create("http://h/f", DIR.resolve("f"), REMOTE, List.of(new SegmentRecord(0, 100, 0)));
    records.checkpoint(id, List.of(new SegmentRecord(0, 100, 80)), Map.of(0, 1, 1, 2, 2, 3));
    records.checkpoint(id, List.of(new SegmentRecord(0, 100, 90)), Map.of(3, 4));
    assertEquals(Map.of(0, 1, 1, 2, 2, 3, 3, 4), records.blockSums(id), "sums accumulate over checkpoints");
    records.repair(id, List.of(new SegmentRecord(0, 100, 20)), Map.of(0, 1));
    assertEquals(List.of(new SegmentRecord(0, 100, 20)), records.segments(id));
    assertEquals(Map.of(0, 1), records.blockSums(id));
  }

  @Test
  default void unfinishedDownloadsOfAUrlAreFoundNewestFirstAndAMovedOneUnderItsNewUrl() throws Exception {
    ResumeRecords records = stores().open().records();
    long older = records.create("http://h/f", DIR.resolve("a"), REMOTE, List.of());
    long done = records.create("http://h/f", DIR.resolve("b"), REMOTE, List.of());
    long newer = records.create("http://h/f", DIR.resolve("c"), REMOTE, List.of(new SegmentRecord(0, -1, 5)));
    records.complete(done, List.of(), Map.of());
    records.create("http://h/other", DIR.resolve("d"), REMOTE, List.of());
    assertEquals(List.of(newer, older), records.findUnfinished("http://h/f").stream().map(DownloadRecord::id).toList());
    assertEquals(List.of(new SegmentRecord(0, -1, 5)), records.segments(newer), "a segment of unknown end");

    RemoteIdentity moved = new RemoteIdentity("http://cdn/f?sig=2", 100, "\"e2\"", null, false);
    records.changeUrl(older, "http://h/f2", moved);
    DownloadRecord r = records.find(older).orElseThrow();
    assertEquals("http://h/f2", r.url());
    assertEquals(moved, r.remote());
    assertEquals(List.of(newer), records.findUnfinished("http://h/f").stream().map(DownloadRecord::id).toList());
    assertEquals(List.of(older), records.findUnfinished("http://h/f2").stream().map(DownloadRecord::id).toList());
  }

  @Test
  default void aStatusIsSetWithItsErrorAndADeletedRecordTakesItsSegmentsAlong() throws Exception {
    ResumeRecords records = stores().open().records();
    long id = records.create("http://h/f", DIR.resolve("f"), REMOTE, List.of(new SegmentRecord(0, 100, 10)));
    records.checkpoint(id, List.of(new SegmentRecord(0, 100, 60)), Map.of(0, 9));
    records.markStatus(id, DownloadState.FAILED, "boom");
    assertEquals("boom", records.find(id).orElseThrow().error());
    assertEquals(DownloadState.FAILED, records.find(id).orElseThrow().status());
    records.markStatus(id, DownloadState.PAUSED, null);
    assertEquals(null, records.find(id).orElseThrow().error());
    records.delete(id);
    assertFalse(records.find(id).isPresent());
    assertTrue(records.segments(id).isEmpty());
    assertTrue(records.blockSums(id).isEmpty());
    assertEquals(List.of(), records.list());
  }
}
