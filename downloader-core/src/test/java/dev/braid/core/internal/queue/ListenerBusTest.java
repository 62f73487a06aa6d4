package dev.braid.core.internal.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.braid.core.Download;
import dev.braid.core.DownloadListener;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The loop turns at every event (a daemon's batch of small files: several per download), and
 * the queue's handles are read only when a listener's progress is due, not at every turn.
 */
class ListenerBusTest {
  private final AtomicInteger reads = new AtomicInteger();
  private final Supplier<Collection<Download>> handles = () -> {
    reads.incrementAndGet();
    return List.of();
  };

  @Test
  void theHandlesAreReadOncePerProgressPeriodNotAtEveryTurn() {
    ListenerBus bus = new ListenerBus(() -> { });
    bus.listen(null, new DownloadListener() { }, Duration.ofSeconds(1));
    long t0 = System.nanoTime();
    for (int turn = 0; turn < 1_000; turn++) {
      bus.sendProgress(t0 + TimeUnit.MILLISECONDS.toNanos(turn / 2), handles);
    }
    assertEquals(1, reads.get(), "read at the first turn only, within the listener's second");
    bus.sendProgress(t0 + TimeUnit.SECONDS.toNanos(1), handles);
    assertEquals(2, reads.get(), "read again once the second is over");
  }

  @Test
  void withoutListenersTheHandlesAreNeverRead() {
    ListenerBus bus = new ListenerBus(() -> { });
    for (int turn = 0; turn < 100; turn++) {
      bus.sendProgress(System.nanoTime(), handles);
    }
    assertEquals(0, reads.get());
  }
}
