package dev.braid.core.internal.transfer;

import dev.braid.core.time.Ticker;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.internal.io.PartFile;
import dev.braid.core.internal.plan.SegmentTable;
import dev.braid.core.internal.probe.ProbeResult;
import dev.braid.store.SegmentRecord;
import dev.braid.testserver.Content;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The comparison of a probe's first bytes with those on disk, against real responses and a real part file. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HeldBytesTest {
  private static final int LENGTH = 64 << 10;
  private static final int AT = 40 << 10;
  private final Content content = Content.random(LENGTH, 3);

  @TempDir Path dir;
  private StageParts parts;
  private PartFile part;
  private final List<String> notes = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    parts = new StageParts(dir);
    parts.server.serve("/f", content).etag("\"h\"");
    part = PartFile.open(dir.resolve("f.part"));
    part.reset(LENGTH);
  }

  @AfterEach
  void stop() throws Exception {
    part.close();
    parts.close();
  }

  /** The table of a resume with {@code [0, AT)} done. */
  private static SegmentTable heldUpTo(int done) {
    return SegmentTable.restore(List.of(new SegmentRecord(0, LENGTH, done)), 1 << 10, Ticker.SYSTEM);
  }

  private HeldBytes.ProbeSample sampleOf(ProbeResult r) {
    return new HeldBytes.ProbeSample(r.exchange(), r.offset(), HeldBytes.SAMPLE);
  }

  @Test
  void theHeldBytesBeforeAPositionAreAtMostOneSample() {
    List<SegmentRecord> segments = List.of(new SegmentRecord(0, 1000, 1000), new SegmentRecord(1000, LENGTH, AT - 1000));
    assertEquals(HeldBytes.SAMPLE, HeldBytes.heldBefore(segments, AT));
    assertEquals(500, HeldBytes.heldBefore(segments, 500));
    assertEquals(0, HeldBytes.heldBefore(segments, AT + 1), "past the done prefix nothing is held");
  }

  @Test
  void theSameBytesAreSkippedAndTheBodyContinuesAfterThem() throws Exception {
    part.write(ByteBuffer.wrap(StageParts.bytes(content, 0, AT)), 0);
    ProbeResult r = parts.probe("/f", AT - HeldBytes.SAMPLE, LENGTH);
    HeldBytes.ProbeSample sample = sampleOf(r);
    try {
      assertNull(sample.whyChanged(part, heldUpTo(AT), notes::add));
      assertEquals(AT, sample.bodyOffset());
      assertTrue(sample.usable());
    } finally {
      r.exchange().abort();
    }
  }

  @Test
  void otherBytesOnDiskAreSaidToDiffer() throws Exception {
    part.write(ByteBuffer.wrap(StageParts.bytes(Content.random(LENGTH, 4), 0, AT)), 0);
    ProbeResult r = parts.probe("/f", AT - HeldBytes.SAMPLE, LENGTH);
    try {
      String why = sampleOf(r).whyChanged(part, heldUpTo(AT), notes::add);
      assertTrue(why != null && why.contains("are not the ones on disk"), why);
    } finally {
      r.exchange().abort();
    }
  }

  @Test
  void aBodyThatEndsEarlyComparesNothingAndIsNotStreamed() throws Exception {
    part.write(ByteBuffer.wrap(StageParts.bytes(Content.random(LENGTH, 4), 0, AT)), 0);
    parts.server.serve("/f", content).etag("\"h\"").truncateAfter(1000, 1);
    ProbeResult r = parts.probe("/f", AT - HeldBytes.SAMPLE, LENGTH);
    HeldBytes.ProbeSample sample = sampleOf(r);
    assertNull(sample.whyChanged(part, heldUpTo(AT), notes::add), "nothing could be compared");
    assertFalse(sample.usable());
    assertEquals(1, notes.size());
    assertTrue(notes.get(0).contains("resumed on its validators alone"), notes.toString());
  }

  @Test
  void bytesNoLongerHeldAreNotCompared() throws Exception {
    ProbeResult r = parts.probe("/f", AT - HeldBytes.SAMPLE, LENGTH);
    HeldBytes.ProbeSample sample = sampleOf(r);
    try {
      // the block check took the held bytes back: the table holds less than the sample
      assertNull(sample.whyChanged(part, heldUpTo(AT - HeldBytes.SAMPLE), notes::add));
      assertEquals(AT - HeldBytes.SAMPLE, sample.bodyOffset(), "the body is untouched");
      assertTrue(sample.usable());
    } finally {
      r.exchange().abort();
    }
  }
}
