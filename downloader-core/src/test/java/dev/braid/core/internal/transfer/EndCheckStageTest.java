package dev.braid.core.internal.transfer;

import dev.braid.core.time.Ticker;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.DownloadRequest;
import dev.braid.core.internal.fetch.RangeSource;
import dev.braid.core.internal.fetch.RemoteChanged;
import dev.braid.core.internal.http.OriginHeaders;
import dev.braid.core.internal.io.PartFile;
import dev.braid.core.internal.plan.SegmentTable;
import dev.braid.core.rules.Rules;
import dev.braid.store.RemoteIdentity;
import dev.braid.store.ResumeRecords;
import dev.braid.store.SegmentRecord;
import dev.braid.testserver.Content;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The end check alone: a completed part file, its record in a real SQLite store, and the
 * loopback test server serving the same file, or another under the same validators.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EndCheckStageTest {
  private static final int LENGTH = 64 << 10;
  private final Content content = Content.random(LENGTH, 11);

  @TempDir Path dir;
  private StageParts parts;
  private ResumeRecords records;
  private PartFile part;
  private RemoteIdentity identity;
  private long id;
  private PartCommit commit;

  @BeforeEach
  void start() throws Exception {
    parts = new StageParts(dir);
    records = parts.store.records();
    parts.server.serve("/f", content).etag("\"e\"");
    var probe = parts.probe("/f", 0, 1);
    probe.exchange().abort();
    identity = probe.identity();
    part = PartFile.open(dir.resolve("f.part"));
    part.reset(LENGTH);
    part.write(ByteBuffer.wrap(StageParts.bytes(content, 0, LENGTH)), 0);
    List<SegmentRecord> done = List.of(new SegmentRecord(0, LENGTH, LENGTH));
    id = records.create(identity.finalUrl(), dir.resolve("f"), identity, done);
    commit = new PartCommit(records, part, new ResumePlan(SegmentTable.restore(done, 1 << 10, Ticker.SYSTEM), id, 0, null), null);
  }

  @AfterEach
  void stop() throws Exception {
    part.close();
    parts.close();
  }

  private EndCheck check() {
    return new EndCheck(parts.budget, parts.route, OriginHeaders.NONE, parts.recorder, parts.log);
  }

  private DownloadRequest request(boolean restart) throws Exception {
    return DownloadRequest.builder(parts.server.url("/f")).file(dir.resolve("f")).restartIfChanged(restart).build();
  }

  private void require(EndCheck check, DownloadRequest request, boolean paused, RemoteIdentity of) throws RemoteChanged {
    check.require(request, new PassControl(() -> paused, Ticker.SYSTEM), commit, part, new RangeSource(of, null));
  }

  @Test
  void theSameFileOnTheServerPassesAndTheRecordStays() throws Exception {
    require(check(), request(true), false, identity);
    assertEquals(List.of(new SegmentRecord(0, LENGTH, LENGTH)), records.segments(id));
    assertEquals(0, parts.budget.inUse(), "the permit was given back");
    assertTrue(parts.server.requests().get(parts.server.requests().size() - 1).range().startsWith("bytes=0-"));
  }

  @Test
  void otherBytesUnderTheSameValidatorsStartOverWithTheRestartLogged() throws Exception {
    parts.server.serve("/f", Content.random(LENGTH, 12)).etag("\"e\"");
    RemoteChanged e = assertThrows(RemoteChanged.class, () -> require(check(), request(true), false, identity));
    assertTrue(e.getMessage().contains("changed while the file was downloaded"), e.getMessage());
    assertEquals(1, parts.log.restarts());
    assertEquals(e.getMessage(), parts.log.lastRestartReason());
    assertEquals(List.of(new SegmentRecord(0, LENGTH, 0)), records.segments(id), "the next pass fetches every byte");
    assertEquals(0, parts.budget.inUse());
  }

  @Test
  void withoutRestartsAChangeStillFailsButNoRestartIsCounted() throws Exception {
    parts.server.serve("/f", Content.random(LENGTH, 12)).etag("\"e\"");
    assertThrows(RemoteChanged.class, () -> require(check(), request(false), false, identity));
    assertEquals(0, parts.log.restarts());
  }

  @Test
  void withoutRangesTheHeadIsComparedAndANewEtagIsAChange() throws Exception {
    RemoteIdentity whole = new RemoteIdentity(identity.finalUrl(), LENGTH, "\"e\"", null, false);
    parts.server.serve("/f", content).etag("\"e2\"");
    RemoteChanged e = assertThrows(RemoteChanged.class, () -> require(check(), request(true), false, whole));
    assertTrue(e.getMessage().contains("the ETag changed from \"e\" to \"e2\""), e.getMessage());
  }

  @Test
  void aCheckThatCannotBeMadeProvesNothingAndIsNoted() throws Exception {
    parts.server.respond("/f", 500);
    require(check(), request(true), false, identity);
    assertEquals(0, parts.log.restarts());
    assertTrue(parts.log.notes().get(0).message().contains("could not look at the server once more"),
        parts.log.notes().toString());
    assertEquals(List.of(new SegmentRecord(0, LENGTH, LENGTH)), records.segments(id));
  }

  @Test
  void aPauseWhileWaitingForAConnectionChecksNothing() throws Exception {
    ConnectionBudget full = new ConnectionBudget(1, 1, Rules.NONE, parts.store.grants(), "other");
    assertTrue(full.tryAcquire(HostConnections.hostOf(identity)));
    parts.server.clearRequests();
    new EndCheck(full, parts.route, OriginHeaders.NONE, parts.recorder, parts.log)
        .require(request(true), new PassControl(() -> true, Ticker.SYSTEM), commit, part, new RangeSource(identity, null));
    assertTrue(parts.server.requests().isEmpty(), parts.server.requests().toString());
  }
}
