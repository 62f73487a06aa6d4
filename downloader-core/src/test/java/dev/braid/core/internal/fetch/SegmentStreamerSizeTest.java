package dev.braid.core.internal.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.braid.core.time.Ticker;
import org.junit.jupiter.api.Test;

class SegmentStreamerSizeTest {
  private static final long MIB = 1L << 20;

  @Test
  void aFirstRequestIsAtMostHalfAConnectionsShareWithinItsBounds() {
    // large files keep 4 MiB first requests
    assertEquals(4 * MIB, SegmentStreamer.firstRequestSize(1024 * MIB, 16));
    assertEquals(4 * MIB, SegmentStreamer.firstRequestSize(32 * MIB, 4));
    // 16 MiB over 16 connections: 512 KiB, so that all 16 find a piece beyond the requests in flight
    assertEquals(MIB / 2, SegmentStreamer.firstRequestSize(16 * MIB, 16));
    // never below the floor, however small the share
    assertEquals(256 << 10, SegmentStreamer.firstRequestSize(2 * MIB, 16));
    // an unknown length keeps the default
    assertEquals(SegmentStreamer.FIRST_REQUEST, SegmentStreamer.firstRequestSize(-1, 16));
  }

  @Test
  void beforeItsRateIsKnownAConnectionAsksForTheFirstSize() {
    SegmentStreamer s = new SegmentStreamer(64 << 10, null, null, null, null, null, Ticker.SYSTEM);
    assertEquals(3 * MIB, s.nextRequestSize(3 * MIB));
  }
}
