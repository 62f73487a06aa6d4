package dev.braid.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.store.DownloadState;
import dev.braid.store.QueueEntry;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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
      Connections db = store.connections();
      Future<?> writer = pool.submit(() -> db.write("a slow write", () -> {
        var s = db.statement("INSERT INTO settings (key, value) VALUES ('k', 'v')");
        s.executeUpdate();
        db.statement("UPDATE queue SET state = 'PAUSED' WHERE id = " + queued.id()).executeUpdate();
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
}
