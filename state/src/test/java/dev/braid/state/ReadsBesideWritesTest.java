package dev.braid.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.store.DownloadState;
import dev.braid.store.QueueCensus;
import dev.braid.store.QueueEntry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Reads run on a connection of their own: a write's open transaction holds none of them up. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReadsBesideWritesTest {
  @TempDir Path dir;

  @Test
  void readsAnswerWhileAWriteHoldsItsTransactionAndSeeItOnceCommitted() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    CountDownLatch letGo = new CountDownLatch(1);
    try (Store store = Store.open(dir.resolve("s.db"))) {
      QueueEntry queued = store.queue().add(List.of("http://h/a"), null, dir, Map.of(), 0, "me");
      CountDownLatch inside = new CountDownLatch(1);
      Future<?> writer = pool.submit(() -> store.write("a slow write", () -> {
        var s = store.statement("INSERT INTO settings (key, value) VALUES ('k', 'v')");
        s.executeUpdate();
        store.statement("UPDATE queue SET state = 'PAUSED' WHERE id = " + queued.id()).executeUpdate();
        inside.countDown();
        try {
          letGo.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return null;
      }));
      assertTrue(inside.await(30, TimeUnit.SECONDS));
      // with one lock for reads and writes, each of these waited for the write above
      Future<Map<String, String>> settings = pool.submit(store::settings);
      Map<String, String> during;
      try {
        during = settings.get(20, TimeUnit.SECONDS);
      } finally {
        // a read that waited must not keep the write (and the store's close) waiting too
        if (!settings.isDone()) {
          letGo.countDown();
        }
      }
      assertFalse(during.containsKey("k"), "a read saw a write not yet committed: " + during);
      assertEquals(DownloadState.QUEUED, store.queue().get(queued.id()).orElseThrow().state());
      assertEquals(Map.of(DownloadState.QUEUED, 1L), store.queue().census().counts());
      assertTrue(store.findByTarget(dir.resolve("x")).isEmpty());
      assertTrue(store.host("h:80").isEmpty());
      letGo.countDown();
      writer.get(20, TimeUnit.SECONDS);
      // the write returned once committed: its thread's next read sees it
      assertEquals("v", CompletableFuture.supplyAsync(() -> store.settings().get("k"), pool).get(20, TimeUnit.SECONDS));
      assertEquals(DownloadState.PAUSED, store.queue().get(queued.id()).orElseThrow().state());
    } finally {
      letGo.countDown();
      pool.shutdownNow();
    }
  }

  @Test
  void aCensusWhileEntriesStartAndEndSeesEachOnce() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    AtomicBoolean stop = new AtomicBoolean();
    try (Store store = Store.open(dir.resolve("s.db"))) {
      List<Long> ids = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        ids.add(store.queue().add(List.of("http://h/" + i), null, dir, Map.of(), 0, "me").id());
      }
      // entries start and end one at a time, each its own commit, for as long as the census is read
      Future<?> flips = pool.submit(() -> {
        for (int n = 0; !stop.get(); n++) {
          long id = ids.get(n % ids.size());
          store.queue().setState(id, (n / ids.size()) % 2 == 0 ? DownloadState.ACTIVE : DownloadState.COMPLETED, null, null);
        }
      });
      for (int look = 0; look < 2_000; look++) {
        QueueCensus c = store.queue().census();
        assertEquals(c.counts().getOrDefault(DownloadState.ACTIVE, 0L), (long) c.active().size(),
            "look " + look + ": counted " + c.counts() + " but read " + c.active().size() + " active");
        assertEquals(ids.size(), c.counts().values().stream().mapToLong(Long::longValue).sum());
      }
      stop.set(true);
      flips.get(20, TimeUnit.SECONDS);
    } finally {
      stop.set(true);
      pool.shutdownNow();
    }
  }
}
