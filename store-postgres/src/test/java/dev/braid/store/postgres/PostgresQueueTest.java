package dev.braid.store.postgres;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.store.DownloadState;
import dev.braid.store.EntryProgress;
import dev.braid.store.EntryRetry;
import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The queue's leases through the store interface, each worker a store of its own (its own
 * connections, as separate processes have), against a real PostgreSQL server: what is this
 * store's own (leases that lapse and are renewed, runnable pages without live workers' entries,
 * the completed_by column); what every store does is the store contract's
 * ({@link PostgresStoreContractTest}).
 */
@ExtendWith(OneCluster.class)
class PostgresQueueTest {
  private static final Path DIR = Path.of("/tmp/fleet");
  private static PostgresCluster cluster;
  private String database;
  private final List<PostgresStore> opened = new ArrayList<>();

  @BeforeAll
  static void shareCluster(PostgresCluster shared) {
    cluster = shared;
  }

  @BeforeEach
  void newDatabase() throws Exception {
    database = cluster.newDatabase();
  }

  @AfterEach
  void closeStores() {
    opened.forEach(PostgresStore::close);
  }

  /** A worker's store, with a lease of {@code leaseSeconds}. */
  private QueueStore worker(int leaseSeconds) {
    PostgresStore s = PostgresStore.open(cluster.locationWithPassword(database) + "&lease=" + leaseSeconds);
    opened.add(s);
    return s.queue();
  }

  private List<Long> addEntries(QueueStore q, int n) {
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ids.add(q.add(List.of("http://127.0.0.1/f" + i), null, DIR, Map.of("connections", "1"), 0, null,
          DownloadState.QUEUED).id());
    }
    return ids;
  }

  @Test
  void workersStartingFromTheSameRunnablePagesNeverGetTheSameEntry() throws Exception {
    int entries = 400;
    addEntries(worker(30), entries);
    int workers = 4;
    Map<Long, String> startedBy = new ConcurrentHashMap<>();
    AtomicInteger twice = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    // Rounds: every worker reads its page before any starts, so all four contest the same ids at
    // once. How the scheduler orders the threads then decides only who wins, never whether they met.
    CyclicBarrier pagesRead = new CyclicBarrier(workers);
    CyclicBarrier startsDone = new CyclicBarrier(workers);
    ExecutorService pool = Executors.newFixedThreadPool(workers);
    List<Future<Integer>> results = new ArrayList<>();
    for (int w = 0; w < workers; w++) {
      String owner = "host" + w + ":1:1";
      QueueStore q = worker(30);
      results.add(pool.submit(() -> {
        int mine = 0;
        while (true) {
          // as the engine's loop does: read a page of runnable ids, start them in order
          List<Long> page = q.runnable(64, 0);
          pagesRead.await(60, TimeUnit.SECONDS);
          if (page.isEmpty()) {
            return mine;
          }
          for (long id : page) {
            Optional<QueueEntry> e = q.start(id, owner);
            if (e.isPresent()) {
              assertEquals(owner, e.get().owner());
              assertEquals(DownloadState.ACTIVE, e.get().state());
              if (startedBy.putIfAbsent(id, owner) != null) {
                twice.incrementAndGet();
              }
              mine++;
            } else {
              refused.incrementAndGet();
            }
          }
          startsDone.await(60, TimeUnit.SECONDS);
        }
      }));
    }
    int total = 0;
    for (Future<Integer> f : results) {
      total += f.get(120, TimeUnit.SECONDS);
    }
    pool.shutdown();
    assertEquals(0, twice.get(), "entries started by two workers");
    assertEquals(entries, total);
    assertEquals((workers - 1) * entries, refused.get(), "each entry refused to every worker but its one");
    assertEquals(entries, count("SELECT count(*) FROM queue WHERE state = 'ACTIVE' AND lease_until > clock_timestamp()"));
  }

  @Test
  void aDeadWorkersEntryIsTakenOverAfterItsLeaseAndItsLateEndChangesNothing() throws Exception {
    QueueStore dead = worker(2);
    QueueStore live = worker(2);
    long id = addEntries(dead, 1).get(0);
    assertTrue(dead.start(id, "a:1:1").isPresent());
    long started = System.nanoTime();
    assertTrue(live.runnable(10, 0).isEmpty(), "a live lease's entry is not runnable for others");
    assertTrue(live.start(id, "b:2:2").isEmpty(), "started while its lease runs");
    // a stops renewing (SIGKILL): b takes it once the lease has lapsed, not before
    await("taken over within 10 s of a 2 s lease").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
        .until(() -> !live.runnable(10, 0).isEmpty() && live.start(id, "b:2:2").isPresent());
    long waited = (System.nanoTime() - started) / 1_000_000;
    assertTrue(waited >= 1_900, "taken over after " + waited + " ms of a 2 s lease");
    assertEquals(Map.of(), dead.heartbeat("a:1:1", List.of(new EntryProgress(id, null, 10, 5))),
        "the old holder's heartbeat holds nothing");
    QueueEntry late = dead.finish("a:1:1", new EntryProgress(id, null, 10, 10), DownloadState.COMPLETED, null, null, EntryRetry.NONE).orElseThrow();
    assertEquals(DownloadState.ACTIVE, late.state(), "the old holder's end changed the entry");
    assertEquals("b:2:2", late.owner());
    QueueEntry done = live.finish("b:2:2", new EntryProgress(id, null, 10, 10), DownloadState.COMPLETED, null, null, EntryRetry.NONE).orElseThrow();
    assertEquals(DownloadState.COMPLETED, done.state());
    assertEquals(10, done.done());
    assertEquals("b:2:2", completedBy(id));
  }

  @Test
  void aHeartbeatKeepsItsEntriesAndHearsWhatOthersAsked() throws Exception {
    QueueStore a = worker(2);
    QueueStore b = worker(2);
    List<Long> ids = addEntries(a, 2);
    ids.forEach(id -> assertTrue(a.start(id, "a:1:1").isPresent()));
    b.setState(ids.get(1), DownloadState.PAUSED, null, null);
    long end = System.nanoTime() + 3_000_000_000L;
    while (System.nanoTime() < end) {
      Map<Long, DownloadState> held = a.heartbeat("a:1:1", List.of(new EntryProgress(ids.get(0), Path.of("/tmp/fleet/f0"), 100, 50)));
      assertEquals(Map.of(ids.get(0), DownloadState.ACTIVE, ids.get(1), DownloadState.PAUSED), held);
      assertTrue(b.start(ids.get(0), "b:2:2").isEmpty(), "taken from a live holder");
      Thread.sleep(200);
    }
    QueueEntry e = b.get(ids.get(0)).orElseThrow();
    assertEquals(50, e.done());
    assertEquals(Path.of("/tmp/fleet/f0"), e.target());
    assertTrue(b.held(e));
  }

  private String completedBy(long id) throws SQLException {
    try (Connection c = cluster.connect(database);
        PreparedStatement s = c.prepareStatement("SELECT completed_by FROM queue WHERE id = ?")) {
      s.setLong(1, id);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return rs.getString(1);
      }
    }
  }

  private int count(String sql) throws SQLException {
    try (Connection c = cluster.connect(database); ResultSet rs = c.createStatement().executeQuery(sql)) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
