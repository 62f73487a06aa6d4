package dev.braid.core.internal.fetch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.HostResolver;
import dev.braid.core.internal.http.Exchange;
import dev.braid.core.internal.http.HttpSettings;
import dev.braid.core.internal.http.HttpTransport;
import dev.braid.core.internal.http.OriginHeaders;
import dev.braid.core.internal.http.PhaseRecorder;
import dev.braid.core.internal.http.Protocol;
import dev.braid.core.internal.http.ProxyPlan;
import dev.braid.core.internal.http.RequestProxy;
import dev.braid.core.internal.io.SegmentSink;
import dev.braid.core.internal.limit.Throttle;
import dev.braid.core.internal.limit.TokenBucket;
import dev.braid.core.internal.plan.Segment;
import dev.braid.core.internal.plan.SegmentTable;
import dev.braid.core.time.Ticker;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReadPacingTest {
  private static final int KIB = 1 << 10;
  private static final int MIB = 1 << 20;
  private static final int ASKED = 128 * KIB;
  private static final double ONE_MIB_PER_S = MIB;

  @Test
  void aBodyArrivingAFewKibAtATimeIsReadAndWrittenInBatches() throws Exception {
    Content content = Content.random(MIB, 37);
    try (TestServer server = TestServer.start();
        HttpTransport http = new HttpTransport(new HttpSettings(Duration.ofSeconds(5), Duration.ofSeconds(5),
            Duration.ofSeconds(10), Duration.ofSeconds(10), 8, 5, "braid-test", false, null, false, HostResolver.SYSTEM,
            Duration.ofSeconds(60), ProxyPlan.DIRECT, Duration.ofSeconds(30), Ticker.SYSTEM))) {
      // 2 KiB every ~1 ms, as a long path delivers a few packets at a time: a reader that reads as
      // soon as bytes arrive finds one piece per read (512 reads and writes for the MiB)
      server.serve("/f", content).rateLimitPerConnection(2 * MIB).pieceSize(2 * KIB);
      SegmentTable table = SegmentTable.fresh(MIB, false, MIB);
      Segment seg = table.next(SegmentTable.NO_CUT);
      table.requestEnd(seg, MIB);
      ArraySink sink = new ArraySink(MIB);
      Throttle unlimited = new Throttle(new TokenBucket(0, Ticker.SYSTEM), new TokenBucket(0, Ticker.SYSTEM));
      SegmentStreamer streamer = new SegmentStreamer(ASKED, table, sink, new LongAdder(), unlimited, null, Ticker.SYSTEM);
      Exchange ex = http.get(Protocol.HTTP_1_1, URI.create(server.url("/f")), Map.of(), OriginHeaders.NONE, new PhaseRecorder(),
          RequestProxy.ENGINE);

      streamer.stream(ex, seg);

      byte[] expected = new byte[MIB];
      content.read(0, expected, 0, MIB);
      assertArrayEquals(expected, sink.bytes);
      // a wait of 10 ms (32 KiB would take 16 ms) gathers ~20 KiB, so some 50 writes; one per piece: 512
      assertTrue(sink.writes <= 128, sink.writes + " writes for 1 MiB in 2 KiB pieces: not batched");
    }
  }

  @Test
  void aPlainReadThatEmptiedTheSocketWaitsForABatchAtTheConnectionsPaceWithinBounds() {
    ReadPacing pacing = new ReadPacing(ASKED);
    // 32 KiB at 4 MiB/s: 7.8 ms
    assertEquals(7_812_500, pacing.pauseAfter(6 * KIB, ASKED, true, 4 * ONE_MIB_PER_S), 1000);
    // a plain read after a wait still empties the socket, however little it brought
    assertEquals(7_812_500, pacing.pauseAfter(3 * KIB, ASKED, true, 4 * ONE_MIB_PER_S), 1000);
    // 32 KiB at 512 KiB/s would be 62.5 ms
    assertEquals(ReadPacing.MAX_PAUSE_NANOS, pacing.pauseAfter(6 * KIB, ASKED, true, ONE_MIB_PER_S / 2));
  }

  @Test
  void noWaitAfterAFullReadOnAFastConnectionOrBeforeThePaceIsKnown() {
    ReadPacing pacing = new ReadPacing(ASKED);
    assertEquals(0, pacing.pauseAfter(ASKED, ASKED, true, ONE_MIB_PER_S), "the socket held more");
    assertEquals(0, pacing.pauseAfter(6 * KIB, ASKED, true, 1024 * ONE_MIB_PER_S), "32 KiB in 31 µs: under 1 ms");
    assertEquals(0, pacing.pauseAfter(6 * KIB, ASKED, true, 0), "pace unknown");
  }

  @Test
  void overTlsOnlyAReadShorterThanARecordWaitsAndSmallRecordsDisarmIt() {
    ReadPacing pacing = new ReadPacing(ASKED);
    assertEquals(0, pacing.pauseAfter(16 * KIB, ASKED, false, ONE_MIB_PER_S), "a full record says nothing of the socket");
    assertTrue(pacing.pauseAfter(4 * KIB, ASKED, false, ONE_MIB_PER_S) > 0);
    // a server of 4 KiB records: the read after the wait is short again; waiting after each would
    // hold the connection to a record per wait
    assertEquals(0, pacing.pauseAfter(4 * KIB, ASKED, false, ONE_MIB_PER_S));
    assertEquals(0, pacing.pauseAfter(4 * KIB, ASKED, false, ONE_MIB_PER_S));
    // full records again: armed
    assertEquals(0, pacing.pauseAfter(16 * KIB, ASKED, false, ONE_MIB_PER_S));
    assertTrue(pacing.pauseAfter(4 * KIB, ASKED, false, ONE_MIB_PER_S) > 0);
  }

  /** The file's bytes in memory, and how many writes brought them. */
  private static final class ArraySink implements SegmentSink {
    final byte[] bytes;
    int writes;

    ArraySink(int size) {
      bytes = new byte[size];
    }

    @Override
    public void write(ByteBuffer buffer, long position) {
      writes++;
      buffer.get(bytes, (int) position, buffer.remaining());
    }

    @Override
    public String name() {
      return "memory";
    }

    @Override
    public boolean outOfSpace() {
      return false;
    }
  }
}
