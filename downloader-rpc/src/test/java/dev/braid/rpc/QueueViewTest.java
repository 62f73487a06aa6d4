package dev.braid.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** aria2's list windows, positive and negative offsets. */
class QueueViewTest {
  private static final List<Integer> FIVE = List.of(0, 1, 2, 3, 4);

  @Test
  void windows() {
    assertEquals(List.of(1, 2), QueueView.window(FIVE, 1, 2));
    assertEquals(List.of(3, 4), QueueView.window(FIVE, 3, 10));
    assertEquals(List.of(), QueueView.window(FIVE, 5, 1));
    assertEquals(List.of(4), QueueView.window(FIVE, -1, 1));
    assertEquals(List.of(3, 2, 1), QueueView.window(FIVE, -2, 3));
    assertEquals(List.of(0), QueueView.window(FIVE, -5, 3));
    assertEquals(List.of(), QueueView.window(FIVE, -6, 3));
    assertEquals(List.of(), QueueView.window(FIVE, 0, 0));
  }
}
