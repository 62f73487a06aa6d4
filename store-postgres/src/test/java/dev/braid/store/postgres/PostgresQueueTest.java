package dev.braid.store.postgres;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.store.ChangeMark;
import dev.braid.store.DownloadState;
import dev.braid.store.EntryProgress;
import dev.braid.store.EntryRetry;
import dev.braid.store.NewEntry;
import dev.braid.store.QueueCensus;
import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The queue's leases through the store interface, each worker a store of its own (its own
 * connections, as separate processes have), against a real PostgreSQL server.
 */
class PostgresQueueTest {
  private static final Path DIR = Path.of("/tmp/fleet");
  private static PostgresCluster cluster;
  private String database;
  private final List<PostgresStore> opened = new ArrayList<>();

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = PostgresCluster.start();
  }

  @AfterAll
  static void stopCluster() throws Exception {
    cluster.close();
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
  void aWaitingEntryRunsOnlyOnceItsTimeHasComeAndAPersonsActionEndsTheWait() {
    QueueStore q = worker(30);
    List<Long> ids = addEntries(q, 2);
    long later = System.currentTimeMillis() + 60_000;
    long since = System.currentTimeMillis() - 5_000;
    q.start(ids.get(0), "a:1:1").orElseThrow();
    QueueEntry waiting = q.finish("a:1:1", new EntryProgress(ids.get(0), null, 10, 4), DownloadState.QUEUED, "refused",
        "NetworkException", new EntryRetry(later, 2, since)).orElseThrow();
    assertEquals(DownloadState.QUEUED, waiting.state());
    assertEquals(new EntryRetry(later, 2, since), waiting.retry());
    assertEquals("refused", waiting.error(), "the last error is kept while it waits");
    q.start(ids.get(1), "a:1:1").orElseThrow();
    q.finish("a:1:1", new EntryProgress(ids.get(1), null, 10, 4), DownloadState.QUEUED, "503", "HttpStatusException:503",
        new EntryRetry(System.currentTimeMillis() - 1, 3, since));
    assertEquals(List.of(ids.get(1)), q.runnable(10, 0), "only the entry whose time has come");
    assertTrue(q.start(ids.get(0), "b:2:2").isEmpty(), "not started before its time");
    QueueEntry due = q.start(ids.get(1), "b:2:2").orElseThrow();
    assertEquals(new EntryRetry(0, 3, since), due.retry(), "its wait ends, its count stays for the next failure");
    q.setState(ids.get(0), DownloadState.QUEUED, null, null);
    assertEquals(EntryRetry.NONE, q.get(ids.get(0)).orElseThrow().retry(), "a person's resume ends the wait");
    assertEquals(List.of(ids.get(0)), q.runnable(10, 0), "runnable again (the other is active under a live lease)");
    QueueEntry done = q.finish("b:2:2", new EntryProgress(ids.get(1), null, 10, 10), DownloadState.COMPLETED, null, null,
        EntryRetry.NONE).orElseThrow();
    assertEquals(EntryRetry.NONE, done.retry());
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

  @Test
  void aCompletionIsRecordedOnce() throws Exception {
    QueueStore a = worker(30);
    long id = addEntries(a, 1).get(0);
    assertTrue(a.start(id, "a:1:1").isPresent());
    assertEquals(DownloadState.COMPLETED,
        a.finish("a:1:1", new EntryProgress(id, null, 3, 3), DownloadState.COMPLETED, null, null, EntryRetry.NONE).orElseThrow().state());
    QueueStore b = worker(30);
    assertTrue(b.runnable(10, 0).isEmpty());
    assertTrue(b.start(id, "b:2:2").isEmpty(), "a completed entry started again");
    assertTrue(b.claim(id, "b:2:2"), "nobody holds a completed entry");
    QueueEntry after = b.finish("b:2:2", new EntryProgress(id, null, 3, 0), DownloadState.FAILED, "late", "io", EntryRetry.NONE).orElseThrow();
    assertEquals(DownloadState.COMPLETED, after.state(), "a completion overwritten");
    assertEquals(3, after.done());
    assertEquals("a:1:1", completedBy(id));
  }

  @Test
  void theChangeFeedShowsOthersChangesAndRemovalsOnce() {
    QueueStore a = worker(30);
    QueueStore b = worker(30);
    ChangeMark first = b.mark();
    long id = addEntries(a, 1).get(0);
    long gone = addEntries(a, 1).get(0);
    ChangeMark second = b.mark();
    assertTrue(second.othersWrote());
    assertEquals(gone, second.newestId());
    Set<Long> seen = new HashSet<>();
    b.changedBetween(first.latestChange(), second.latestChange()).forEach(e -> seen.add(e.id()));
    assertEquals(Set.of(id, gone), seen);
    a.updatePriority(id, 5);
    a.remove(gone);
    ChangeMark third = b.mark();
    List<QueueEntry> changed = b.changedBetween(second.latestChange(), third.latestChange());
    assertEquals(List.of(id), changed.stream().map(QueueEntry::id).toList());
    assertEquals(5, changed.get(0).priority());
    assertEquals(List.of(gone), b.removedBetween(second.latestChange(), third.latestChange()));
    assertTrue(b.changedBetween(third.latestChange(), b.mark().latestChange()).isEmpty(), "a change shown twice");
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

  @Test
  void aPageIsReadInEitherOrderAndBackwardsFromTheEndAsAria2Does() {
    QueueStore q = worker(30);
    long[] ids = new long[6];
    // 0, 2, 4 failed; 1 and 5 queued (5 at priority 3); 3 paused
    for (int i = 0; i < ids.length; i++) {
      DownloadState state = i == 3 ? DownloadState.PAUSED : DownloadState.QUEUED;
      ids[i] = q.add(List.of("http://127.0.0.1/p" + i), null, DIR, Map.of(), i == 5 ? 3 : 0, null, state).id();
      if (i % 2 == 0) {
        q.setState(ids[i], DownloadState.FAILED, "refused", "network");
      }
    }
    Set<DownloadState> stopped = Set.of(DownloadState.FAILED, DownloadState.COMPLETED);
    Set<DownloadState> waiting = Set.of(DownloadState.QUEUED, DownloadState.PAUSED);
    assertEquals(List.of(ids[2], ids[4]), idsOf(q.page(stopped, false, 1, 2)));
    assertEquals(List.of(ids[4], ids[2]), idsOf(q.page(stopped, false, -1, 2)));
    assertEquals(List.of(), idsOf(q.page(stopped, false, -4, 2)));
    assertEquals(List.of(ids[5], ids[1], ids[3]), idsOf(q.page(waiting, true, 0, 10)));
    assertEquals(List.of(ids[3], ids[1]), idsOf(q.page(waiting, true, -1, 2)));
    assertEquals(List.of(), idsOf(q.page(waiting, true, 0, 0)));
  }

  private static List<Long> idsOf(List<QueueEntry> entries) {
    return entries.stream().map(QueueEntry::id).toList();
  }

  @Test
  void aCensusWhileAnotherWorkerStartsAndEndsEntriesSeesEachOnce() throws Exception {
    QueueStore counter = worker(30);
    QueueStore mover = worker(30);
    List<Long> ids = addEntries(counter, 10);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    AtomicBoolean stop = new AtomicBoolean();
    try {
      // under READ COMMITTED the count and the active entries were two snapshots
      Future<?> flips = pool.submit(() -> {
        for (int n = 0; !stop.get(); n++) {
          mover.setState(ids.get(n % ids.size()), (n / ids.size()) % 2 == 0 ? DownloadState.ACTIVE : DownloadState.COMPLETED,
              null, null);
        }
      });
      for (int look = 0; look < 300; look++) {
        QueueCensus c = counter.census();
        assertEquals(c.counts().getOrDefault(DownloadState.ACTIVE, 0L), (long) c.active().size(),
            "look " + look + ": counted " + c.counts() + " but read " + c.active().size() + " active");
      }
      stop.set(true);
      flips.get(20, TimeUnit.SECONDS);
    } finally {
      stop.set(true);
      pool.shutdownNow();
    }
  }

  @Test
  void entriesAddedTogetherTakeIdsInTheirOrderAndReadBackAsWritten() {
    QueueStore q = worker(30);
    List<NewEntry> entries = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      entries.add(new NewEntry(List.of("http://127.0.0.1/t" + i), DIR.resolve("t" + i), DIR, Map.of("connections", "2"), i,
          "me", i % 2 == 0 ? DownloadState.QUEUED : DownloadState.PAUSED));
    }
    List<QueueEntry> added = q.addAll(entries);
    List<Long> ids = added.stream().map(QueueEntry::id).toList();
    assertEquals(ids.stream().sorted().distinct().toList(), ids);
    for (int i = 0; i < 5; i++) {
      QueueEntry stored = worker(30).get(ids.get(i)).orElseThrow();
      assertEquals(added.get(i).urls(), stored.urls());
      assertEquals(added.get(i).file(), stored.file());
      assertEquals(added.get(i).state(), stored.state());
      assertEquals(added.get(i).options(), stored.options());
      assertEquals(i, stored.priority());
    }
  }
}
