package dev.braid.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.store.StoreException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Writes that come together share a transaction, and one that fails fails alone. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class GroupCommitTest {
  @TempDir Path dir;

  /**
   * Queues {@code writers} writes while this thread holds the writer's lock, so that they wait
   * together, then lets them go. Each records the thread that ran it; write {@code failing} throws.
   */
  private static List<Future<?>> writeTogether(Store store, int writers, int failing, Map<Integer, Thread> ranOn,
      ExecutorService pool) throws Exception {
    return writeTogether(store, writers, failing, ranOn, pool, waiting -> { });
  }

  /** As above; {@code whileHeld} sees the writers' threads once each waits, before the lock is let go. */
  private static List<Future<?>> writeTogether(Store store, int writers, int failing, Map<Integer, Thread> ranOn,
      ExecutorService pool, Consumer<List<Thread>> whileHeld) throws Exception {
    List<Future<?>> results = new ArrayList<>();
    List<Thread> callers = new ArrayList<>();
    Connections db = store.connections();
    synchronized (db) {
      for (int i = 0; i < writers; i++) {
        int n = i;
        results.add(pool.submit(() -> {
          synchronized (callers) {
            callers.add(Thread.currentThread());
          }
          db.write("write " + n, () -> {
            ranOn.put(n, Thread.currentThread());
            if (n == failing) {
              throw new SQLException("refused on purpose");
            }
            var s = db.statement("INSERT INTO settings (key, value) VALUES (?, ?)");
            s.setString(1, "k" + n);
            s.setString(2, "v" + n);
            s.executeUpdate();
            return null;
          });
          return null;
        }));
      }
      // every writer has queued its write and waits: for the lock this thread holds, or for its write
      while (true) {
        synchronized (callers) {
          if (callers.size() == writers && callers.stream().allMatch(
              t -> t.getState() == Thread.State.BLOCKED || t.getState() == Thread.State.WAITING)) {
            break;
          }
        }
        Thread.sleep(5);
      }
      synchronized (callers) {
        whileHeld.accept(List.copyOf(callers));
      }
    }
    return results;
  }

  @Test
  void writesQueuedTogetherAreCommittedByOneWriterAndEachReturnsOnceCommitted() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try (Store store = Store.open(dir.resolve("s.db"))) {
      Map<Integer, Thread> ranOn = new ConcurrentHashMap<>();
      for (Future<?> f : writeTogether(store, 8, -1, ranOn, pool)) {
        f.get();
      }
      Map<String, String> settings = store.settings();
      for (int i = 0; i < 8; i++) {
        assertEquals("v" + i, settings.get("k" + i));
      }
      // the first writer to take the lock ran every queued write
      assertEquals(1, ranOn.values().stream().distinct().count(), ranOn.toString());
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * One writer waits for the lock, to commit; the others wait for their writes, and are woken
   * once committed. When each waited for the lock, each took it in turn after the batch only to
   * learn its write was done, one thread woken after another while the next batch waited.
   */
  @Test
  void onlyTheCommitterWaitsForTheLockAndTheOthersForTheirWrites() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try (Store store = Store.open(dir.resolve("s.db"))) {
      Map<Integer, Thread> ranOn = new ConcurrentHashMap<>();
      Map<Thread.State, Long> states = new ConcurrentHashMap<>();
      List<Future<?>> results = writeTogether(store, 8, -1, ranOn, pool, waiting -> waiting.forEach(
          t -> states.merge(t.getState(), 1L, Long::sum)));
      assertEquals(Map.of(Thread.State.BLOCKED, 1L, Thread.State.WAITING, 7L), states);
      for (Future<?> f : results) {
        f.get();
      }
      assertEquals(8, store.settings().size());
      assertEquals(1, ranOn.values().stream().distinct().count(), "one transaction: " + ranOn);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aWriteThatFailsInABatchFailsAloneAndTheOthersAreCommitted() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try (Store store = Store.open(dir.resolve("s.db"))) {
      Map<Integer, Thread> ranOn = new ConcurrentHashMap<>();
      List<Future<?>> results = writeTogether(store, 8, 3, ranOn, pool);
      for (int i = 0; i < 8; i++) {
        if (i == 3) {
          Throwable e = assertThrows(ExecutionException.class, results.get(i)::get).getCause();
          assertTrue(e instanceof StoreException, String.valueOf(e));
          assertTrue(e.getMessage().contains("cannot write 3: refused on purpose"), e.getMessage());
        } else {
          results.get(i).get();
        }
      }
      Map<String, String> settings = store.settings();
      assertEquals(7, settings.size(), settings.toString());
      assertFalse(settings.containsKey("k3"));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aWriteMadeInsideAWriteJoinsItsTransaction() {
    try (Store store = Store.open(dir.resolve("s.db"))) {
      assertThrowsStore(() -> store.connections().write("outer", () -> {
        store.saveSetting("inner", "1");
        throw new SQLException("outer fails after the inner write");
      }));
      // rolled back with the outer write: the inner one was part of its transaction
      assertTrue(store.settings().isEmpty(), store.settings().toString());
      store.connections().write("outer", () -> {
        store.saveSetting("inner", "2");
        return null;
      });
      assertEquals("2", store.settings().get("inner"));
    }
  }

  private static void assertThrowsStore(Runnable r) {
    StoreException e = assertThrows(StoreException.class, r::run);
    assertTrue(e.getMessage().contains("cannot outer"), e.getMessage());
  }
}
