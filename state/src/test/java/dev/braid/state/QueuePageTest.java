package dev.braid.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.braid.store.DownloadState;
import dev.braid.store.QueueEntry;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link QueueTable#page}: aria2's windows (negative offsets backwards from the end) read from the store. */
class QueuePageTest {
  @TempDir Path dir;
  private Store store;
  private QueueTable queue;
  private final long[] ids = new long[8];

  /** Eight entries: 0, 2, 4, 6 failed; 1 and 5 queued (5 at priority 3); 3 and 7 paused. */
  @BeforeEach
  void fill() {
    store = Store.open(dir.resolve("page.db"));
    queue = store.queue();
    for (int i = 0; i < ids.length; i++) {
      DownloadState state = i % 2 == 0 ? DownloadState.QUEUED : i % 4 == 1 ? DownloadState.QUEUED : DownloadState.PAUSED;
      ids[i] = queue.add(List.of("http://127.0.0.1:9/f" + i), null, dir, Map.of(), i == 5 ? 3 : 0, null, state).id();
      if (i % 2 == 0) {
        queue.setState(ids[i], DownloadState.FAILED, "refused", "network");
      }
    }
  }

  @org.junit.jupiter.api.AfterEach
  void close() {
    store.close();
  }

  private List<Long> page(Set<DownloadState> states, boolean startOrder, long offset, int limit) {
    return queue.page(states, startOrder, offset, limit).stream().map(QueueEntry::id).toList();
  }

  @Test
  void oldestFirstFromTheStartAndBackwardsFromTheEnd() {
    Set<DownloadState> failed = EnumSet.of(DownloadState.FAILED, DownloadState.COMPLETED);
    assertEquals(List.of(ids[0], ids[2], ids[4], ids[6]), page(failed, false, 0, 10));
    assertEquals(List.of(ids[2], ids[4]), page(failed, false, 1, 2));
    assertEquals(List.of(), page(failed, false, 4, 2));
    assertEquals(List.of(ids[6], ids[4], ids[2]), page(failed, false, -1, 3));
    assertEquals(List.of(ids[2], ids[0]), page(failed, false, -3, 5));
    assertEquals(List.of(ids[0]), page(failed, false, -4, 5));
    assertEquals(List.of(), page(failed, false, -5, 5));
    assertEquals(List.of(), page(failed, false, 0, 0));
  }

  @Test
  void startOrderPutsHigherPriorityFirstThenOlder() {
    Set<DownloadState> waiting = EnumSet.of(DownloadState.QUEUED, DownloadState.PAUSED);
    assertEquals(List.of(ids[5], ids[1], ids[3], ids[7]), page(waiting, true, 0, 10));
    assertEquals(List.of(ids[7], ids[3]), page(waiting, true, -1, 2));
    assertEquals(List.of(ids[5]), page(waiting, true, -4, 2));
    assertEquals(List.of(ids[3], ids[7]), page(EnumSet.of(DownloadState.PAUSED), true, 0, 10));
  }
}
