package dev.braid.core.internal.transfer;

import dev.braid.core.time.Ticker;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.DownloadRequest;
import dev.braid.core.LocalFileException;
import dev.braid.core.RemoteChangedException;
import dev.braid.core.internal.fetch.SegmentStreamer;
import dev.braid.core.internal.http.OriginHeaders;
import dev.braid.core.internal.io.PartFile;
import dev.braid.core.internal.probe.ProbeResult;
import dev.braid.core.internal.verify.BlockSums;
import dev.braid.store.DownloadRecord;
import dev.braid.store.DownloadState;
import dev.braid.store.RemoteIdentity;
import dev.braid.store.ResumeRecords;
import dev.braid.store.SegmentRecord;
import dev.braid.testserver.Content;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resume planning alone: a real SQLite store, real part files, and real probes of the loopback
 * test server, as a pass makes them.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ResumePlannerTest {
  private static final int LENGTH = 256 << 10;
  private static final int DONE = 100 << 10;
  private final Content content = Content.random(LENGTH, 7);

  @TempDir Path dir;
  private StageParts parts;
  private ResumeRecords records;
  private Path target;
  private Path partPath;

  @BeforeEach
  void start() throws Exception {
    parts = new StageParts(dir);
    records = parts.store.records();
    parts.server.serve("/f", content).etag("\"v1\"");
    target = dir.resolve("f.bin");
    partPath = dir.resolve("f.bin.part");
  }

  @AfterEach
  void stop() {
    parts.close();
  }

  private ResumePlanner planner(DownloadRequest request) {
    return new ResumePlanner(request, OriginHeaders.NONE, records, parts.store.location(), parts.route, parts.recorder,
        parts.log, Ticker.SYSTEM);
  }

  private DownloadRequest request() throws Exception {
    return DownloadRequest.builder(parts.server.url("/f")).file(target).build();
  }

  /** What the server says of /f now, from a probe whose body is not read. */
  private RemoteIdentity served() throws Exception {
    ProbeResult r = parts.probe("/f", 0, 1);
    r.exchange().abort();
    return r.identity();
  }

  /** A record of /f with {@code done} bytes of one segment done, and those bytes (from {@code bytes}) in the part file. */
  private long recorded(RemoteIdentity identity, Content bytes, int done) throws Exception {
    long id = records.create(parts.server.url("/f"), target, identity, List.of(new SegmentRecord(0, LENGTH, 0)));
    records.checkpoint(id, List.of(new SegmentRecord(0, LENGTH, done)), Map.of());
    try (PartFile part = PartFile.open(partPath)) {
      part.reset(LENGTH);
      part.write(ByteBuffer.wrap(StageParts.bytes(bytes, 0, done)), 0);
    }
    return id;
  }

  @Test
  void aFreshDownloadIsRecordedBeforeItsPartFileGrows() throws Exception {
    ResumePlanner planner = planner(request());
    Optional<DownloadRecord> prior = planner.priorRecord();
    assertTrue(prior.isEmpty());
    assertEquals(new ResumePlanner.ProbeRange(0, SegmentStreamer.FIRST_REQUEST, 0), planner.probeRange(prior));
    ProbeResult r = parts.probe("/f", 0, SegmentStreamer.FIRST_REQUEST);
    try (PartFile part = PartFile.open(partPath)) {
      ResumePlan plan = planner.plan(Optional.empty(), part, false, target, r.source(),
          new HeldBytes.ProbeSample(r.exchange(), 0, 0));
      assertEquals(0, plan.reused());
      assertEquals(planner.recordId(), plan.recordId());
      assertEquals(LENGTH, part.size());
      DownloadRecord stored = records.find(plan.recordId()).orElseThrow();
      assertEquals(target, stored.target());
      assertEquals("\"v1\"", stored.remote().etag());
      assertTrue(records.segments(plan.recordId()).stream().allMatch(s -> s.done() == 0));
    } finally {
      r.exchange().abort();
    }
  }

  @Test
  void aResumeProbesFromItsFirstMissingByteWithTheHeldBytesBeforeItAndSkipsThem() throws Exception {
    long id = recorded(served(), content, DONE);
    ResumePlanner planner = planner(request());
    Optional<DownloadRecord> prior = planner.priorRecord();
    assertEquals(id, prior.orElseThrow().id());
    ResumePlanner.ProbeRange range = planner.probeRange(prior);
    assertEquals(new ResumePlanner.ProbeRange(DONE - HeldBytes.SAMPLE,
        Math.min(LENGTH, DONE + SegmentStreamer.FIRST_REQUEST), HeldBytes.SAMPLE), range);
    assertEquals(LENGTH - DONE, planner.remaining(prior).orElseThrow());

    ProbeResult r = parts.probe("/f", range.from(), range.to());
    HeldBytes.ProbeSample sample = new HeldBytes.ProbeSample(r.exchange(), r.offset(), range.held());
    try (PartFile part = PartFile.open(partPath)) {
      ResumePlan plan = planner.plan(records.findByTarget(target), part, true, target, r.source(), sample);
      assertEquals(DONE, plan.reused());
      assertEquals(id, plan.recordId());
      assertEquals(DONE, sample.bodyOffset(), "the held bytes were read and compared");
      assertTrue(sample.usable());
      assertArrayEquals(StageParts.bytes(content, DONE, 1000), r.exchange().body().readNBytes(1000),
          "the rest of the probe's body continues at the first missing byte");
      assertEquals(0, parts.log.restarts());
    } finally {
      r.exchange().abort();
    }
  }

  @Test
  void otherBytesUnderTheSameValidatorsStartOverWithTheReasonLogged() throws Exception {
    recorded(served(), Content.random(LENGTH, 8), DONE);
    ResumePlanner planner = planner(request());
    ResumePlanner.ProbeRange range = planner.probeRange(planner.priorRecord());
    ProbeResult r = parts.probe("/f", range.from(), range.to());
    try (PartFile part = PartFile.open(partPath)) {
      ResumePlan plan = planner.plan(records.findByTarget(target), part, true, target, r.source(),
          new HeldBytes.ProbeSample(r.exchange(), r.offset(), range.held()));
      assertEquals(0, plan.reused());
      assertEquals(1, parts.log.restarts());
      assertTrue(parts.log.lastRestartReason().contains("are not the ones on disk"), parts.log.lastRestartReason());
      assertEquals(plan.recordId(), records.findByTarget(target).orElseThrow().id());
      assertTrue(records.segments(plan.recordId()).stream().allMatch(s -> s.done() == 0),
          "nothing of the old bytes counts as done");
    } finally {
      r.exchange().abort();
    }
  }

  @Test
  void changedValidatorsWithoutRestartFailAndKeepTheRecord() throws Exception {
    long id = recorded(served(), content, DONE);
    parts.server.serve("/f", content).etag("\"v2\"");
    DownloadRequest noRestart = DownloadRequest.builder(parts.server.url("/f")).file(target).restartIfChanged(false).build();
    ResumePlanner planner = planner(noRestart);
    ResumePlanner.ProbeRange range = planner.probeRange(planner.priorRecord());
    ProbeResult r = parts.probe("/f", range.from(), range.to());
    try (PartFile part = PartFile.open(partPath)) {
      RemoteChangedException e = assertThrows(RemoteChangedException.class, () -> planner.plan(records.findByTarget(target),
          part, true, target, r.source(), new HeldBytes.ProbeSample(r.exchange(), r.offset(), range.held())));
      assertTrue(e.getMessage().startsWith("cannot resume " + target), e.getMessage());
      assertEquals(List.of(new SegmentRecord(0, LENGTH, DONE)), records.segments(id));
      assertEquals(0, parts.log.restarts());
    } finally {
      r.exchange().abort();
    }
  }

  @Test
  void aPartFileTheStoreDoesNotKnowIsRefusedNamingTheStore() throws Exception {
    Files.write(partPath, new byte[10]);
    ProbeResult r = parts.probe("/f", 0, SegmentStreamer.FIRST_REQUEST);
    try (PartFile part = PartFile.open(partPath)) {
      LocalFileException e = assertThrows(LocalFileException.class, () -> planner(request()).plan(Optional.empty(), part,
          true, target, r.source(), new HeldBytes.ProbeSample(r.exchange(), 0, 0)));
      assertTrue(e.getMessage().contains(parts.store.location() + " has no record of it"), e.getMessage());
      assertEquals(10, part.size(), "nothing written");
    } finally {
      r.exchange().abort();
    }
  }

  @Test
  void aDamagedBlockIsFetchedAgainAndTheRecordRepaired() throws Exception {
    int length = (int) BlockSums.BLOCK + (512 << 10);
    int done = (int) BlockSums.BLOCK + (256 << 10);
    Content big = Content.random(length, 9);
    parts.server.serve("/f", big).etag("\"v1\"");
    long id = records.create(parts.server.url("/f"), target, served(), List.of(new SegmentRecord(0, length, 0)));
    List<SegmentRecord> progress = List.of(new SegmentRecord(0, length, done));
    try (PartFile part = PartFile.open(partPath)) {
      part.reset(length);
      part.write(ByteBuffer.wrap(StageParts.bytes(big, 0, done)), 0);
      records.checkpoint(id, progress, new BlockSums(length, Map.of()).update(part, progress));
      assertEquals(1, records.blockSums(id).size(), "block 0 is complete and summed");
      part.write(ByteBuffer.wrap(new byte[] {(byte) ~StageParts.bytes(big, 4096, 1)[0]}), 4096);
    }
    ResumePlanner planner = planner(request());
    ResumePlanner.ProbeRange range = planner.probeRange(planner.priorRecord());
    ProbeResult r = parts.probe("/f", range.from(), range.to());
    try (PartFile part = PartFile.open(partPath)) {
      ResumePlan plan = planner.plan(records.findByTarget(target), part, true, target, r.source(),
          new HeldBytes.ProbeSample(r.exchange(), r.offset(), range.held()));
      assertEquals(id, plan.recordId(), "the same download, repaired: no restart");
      assertEquals(0, plan.reused(), "the segment's done prefix ends before the damaged block");
      assertEquals(BlockSums.BLOCK, parts.log.damagedBytes());
      assertEquals(0, parts.log.restarts());
      assertEquals(List.of(new SegmentRecord(0, length, 0)), records.segments(id));
      assertTrue(records.blockSums(id).isEmpty());
    } finally {
      r.exchange().abort();
    }
  }

  @Test
  void aFileRenamedBeforeTheCrashIsKeptAndItsRecordCompleted() throws Exception {
    RemoteIdentity identity = served();
    long id = records.create(parts.server.url("/f"), target, identity, List.of(new SegmentRecord(0, LENGTH, 0)));
    records.checkpoint(id, List.of(new SegmentRecord(0, LENGTH, LENGTH)), Map.of());
    Files.write(target, StageParts.bytes(content, 0, LENGTH));
    ResumePlanner planner = planner(request());
    assertEquals(LENGTH, planner.renamedBeforeCrash(records.findByTarget(target), target, partPath, identity).orElseThrow());
    assertEquals(DownloadState.COMPLETED, records.find(id).orElseThrow().status());

    Files.write(target, new byte[10]);
    assertTrue(planner.renamedBeforeCrash(records.findByTarget(target), target, partPath, identity).isEmpty(),
        "a file of another length is not the download's");
  }
}
