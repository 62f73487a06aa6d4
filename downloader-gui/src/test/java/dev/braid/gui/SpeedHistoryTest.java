package dev.braid.gui;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SpeedHistoryTest {
  @Test
  void keepsTheNewestSamplesOldestFirst() {
    SpeedHistory h = new SpeedHistory(3);
    h.add(1);
    h.add(2);
    assertArrayEquals(new double[] {1, 2}, h.values());
    h.add(3);
    h.add(4);
    h.add(-7);
    assertArrayEquals(new double[] {3, 4, 0}, h.values());
    assertEquals(4, h.max());
  }

  @Test
  void theGraphScaleIsRoundInBinaryUnits() {
    assertEquals(1024, SpeedGraph.niceMax(0));
    assertEquals(500, SpeedGraph.niceMax(420));
    assertEquals(2 * 1024 * 1024, SpeedGraph.niceMax(1.7 * 1024 * 1024));
    assertEquals(50 * 1024 * 1024, SpeedGraph.niceMax(23 * 1024 * 1024));
  }
}
