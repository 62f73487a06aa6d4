package dev.braid.gui;

import dev.braid.store.DownloadState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SnapshotCoalescerTest {
  static DownloadSnapshot snap(long id, long done, DownloadState status) {
    return new DownloadSnapshot(id, "http://h/f" + id, "f" + id, null, status, null, 1000, done, 10, 1, null,
        List.of(), null, null, null, null, null, List.of(), PhaseTimings.NONE, false);
  }

  @Test
  void keepsOnlyTheLatestSnapshotPerDownload() {
    SnapshotCoalescer c = new SnapshotCoalescer();
    for (int i = 0; i < 1000; i++) {
      c.offer(snap(1, i, DownloadState.ACTIVE));
      c.offer(snap(2, 2 * i, DownloadState.ACTIVE));
    }
    SnapshotCoalescer.Batch b = c.drain();
    assertEquals(2, b.updates().size());
    assertEquals(999, b.updates().stream().filter(s -> s.id() == 1).findFirst().orElseThrow().done());
    assertTrue(c.drain().isEmpty());
  }

  @Test
  void aRemovalWinsOverEarlierUpdatesAndALaterOfferRevives() {
    SnapshotCoalescer c = new SnapshotCoalescer();
    c.offer(snap(1, 5, DownloadState.ACTIVE));
    c.remove(1);
    SnapshotCoalescer.Batch b = c.drain();
    assertEquals(Set.of(1L), b.removed());
    assertTrue(b.updates().isEmpty());
    c.remove(2);
    c.offer(snap(2, 1, DownloadState.QUEUED));
    b = c.drain();
    assertTrue(b.removed().isEmpty());
    assertEquals(1, b.updates().size());
  }

  @Test
  void noOfferIsLostWhileDrainingConcurrently() throws Exception {
    SnapshotCoalescer c = new SnapshotCoalescer();
    int n = 200_000;
    CountDownLatch go = new CountDownLatch(1);
    Thread producer = new Thread(() -> {
      try {
        go.await();
      } catch (InterruptedException e) {
        return;
      }
      for (int i = 1; i <= n; i++) {
        c.offer(snap(i % 7, i, DownloadState.ACTIVE));
      }
    });
    producer.start();
    go.countDown();
    AtomicLong last = new AtomicLong();
    while (producer.isAlive()) {
      c.drain().updates().forEach(s -> last.accumulateAndGet(s.done(), Math::max));
    }
    producer.join();
    c.drain().updates().forEach(s -> last.accumulateAndGet(s.done(), Math::max));
    assertEquals(n, last.get());
  }
}
