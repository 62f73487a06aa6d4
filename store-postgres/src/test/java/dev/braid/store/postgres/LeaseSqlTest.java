package dev.braid.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The lease and grant SQL against a real PostgreSQL server, with real concurrent connections. */
class LeaseSqlTest {
  private static PostgresCluster cluster;
  private PostgresLocation location;
  private final List<RoleConnection> opened = new ArrayList<>();

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
    location = PostgresLocation.parse(cluster.locationWithPassword(cluster.newDatabase()), null);
    worker("schema").transaction(c -> {
      Schema.apply(c);
      return null;
    });
  }

  @AfterEach
  void closeConnections() {
    opened.forEach(RoleConnection::close);
  }

  private RoleConnection worker(String name) {
    RoleConnection c = new RoleConnection(location, name);
    opened.add(c);
    return c;
  }

  private void addEntries(int n) throws SQLException {
    worker("submitter").transaction(c -> {
      try (PreparedStatement s = c.prepareStatement("INSERT INTO queue (urls, directory, options, priority, state,"
          + " length, done, heartbeat_ms, created_ms, updated_ms) VALUES (?, '/tmp', '', 0, 'QUEUED', -1, 0, 0, 0, 0)")) {
        for (int i = 0; i < n; i++) {
          s.setString(1, "http://127.0.0.1/f" + i);
          s.addBatch();
        }
        s.executeBatch();
      }
      return null;
    });
  }

  @Test
  void concurrentClaimersNeverGetTheSameEntry() throws Exception {
    int entries = 600;
    addEntries(entries);
    int workers = 6;
    Map<Long, String> claimedBy = new ConcurrentHashMap<>();
    AtomicInteger duplicates = new AtomicInteger();
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(workers);
    List<Future<Integer>> results = new ArrayList<>();
    for (int w = 0; w < workers; w++) {
      String owner = "worker-" + w;
      RoleConnection c = worker(owner);
      int batch = 1 + w % 3; // claimers of 1, 2 and 3 entries at a time, side by side
      results.add(pool.submit(() -> {
        go.await();
        int mine = 0;
        while (true) {
          List<QueueLeases.Claim> got = c.transaction(x -> QueueLeases.claimNext(x, owner, 30_000, batch));
          if (got.isEmpty()) {
            return mine;
          }
          for (QueueLeases.Claim claim : got) {
            assertNull(claim.previousOwner(), "a fresh entry had no owner");
            if (claimedBy.putIfAbsent(claim.id(), owner) != null) {
              duplicates.incrementAndGet();
            }
            mine++;
          }
        }
      }));
    }
    go.countDown();
    int total = 0;
    int busyWorkers = 0;
    for (Future<Integer> f : results) {
      int n = f.get(60, TimeUnit.SECONDS);
      total += n;
      busyWorkers += n > 0 ? 1 : 0;
    }
    pool.shutdown();
    assertEquals(0, duplicates.get(), "entries claimed twice");
    assertEquals(entries, total);
    assertEquals(entries, claimedBy.size());
    assertTrue(busyWorkers > 1, "the claimers ran side by side: " + busyWorkers + " got entries");
    try (Connection c = cluster.connect(dbName()); ResultSet rs = c.createStatement().executeQuery(
        "SELECT count(*) FROM queue WHERE state = 'ACTIVE' AND owner IS NOT NULL AND lease_until > clock_timestamp()")) {
      rs.next();
      assertEquals(entries, rs.getInt(1), "every entry is active under a live lease");
    }
  }

  @Test
  void aLapsedLeaseIsTakenOverAndTheOldHolderCanNoLongerFinish() throws Exception {
    addEntries(1);
    RoleConnection a = worker("a");
    RoleConnection b = worker("b");
    long lease = 400;
    List<QueueLeases.Claim> first = a.transaction(c -> QueueLeases.claimNext(c, "a", lease, 1));
    long claimedAt = System.nanoTime();
    assertEquals(1, first.size());
    assertTrue(b.transaction(c -> QueueLeases.claimNext(c, "b", lease, 1)).isEmpty(), "held while the lease runs");
    List<QueueLeases.Claim> taken;
    do {
      taken = b.transaction(c -> QueueLeases.claimNext(c, "b", 30_000, 1));
      assertTrue(System.nanoTime() - claimedAt < 10_000_000_000L, "not taken over within 10 s of a 0.4 s lease");
    } while (taken.isEmpty());
    long waitedMillis = (System.nanoTime() - claimedAt) / 1_000_000;
    assertTrue(waitedMillis >= lease - 50, "taken over after " + waitedMillis + " ms, before its lease ended");
    assertEquals(first.get(0).id(), taken.get(0).id());
    assertEquals("a", taken.get(0).previousOwner(), "the take-over names the lapsed holder");
    long id = first.get(0).id();
    assertFalse(a.transaction(c -> QueueLeases.renew(c, "a", lease)).containsKey(id), "a's heartbeat no longer holds it");
    assertFalse(yes(a, c -> QueueLeases.finish(c, id, "a", "COMPLETED", null, null)), "a may not record its end");
    assertTrue(yes(b, c -> QueueLeases.finish(c, id, "b", "COMPLETED", null, null)));
    assertEquals("b", completedBy(id));
  }

  @Test
  void aRenewedLeaseIsNeverTakenOver() throws Exception {
    addEntries(1);
    RoleConnection a = worker("a");
    RoleConnection b = worker("b");
    long lease = 300;
    long id = a.transaction(c -> QueueLeases.claimNext(c, "a", lease, 1)).get(0).id();
    long end = System.nanoTime() + 1_500_000_000L;
    while (System.nanoTime() < end) {
      assertEquals(Map.of(id, "ACTIVE"), a.transaction(c -> QueueLeases.renew(c, "a", lease)));
      assertTrue(b.transaction(c -> QueueLeases.claimNext(c, "b", lease, 1)).isEmpty(), "taken from a live holder");
      Thread.sleep(lease / 4);
    }
  }

  @Test
  void aCompletionIsRecordedOnce() throws Exception {
    addEntries(1);
    RoleConnection a = worker("a");
    long id = a.transaction(c -> QueueLeases.claimNext(c, "a", 30_000, 1)).get(0).id();
    assertTrue(yes(a, c -> QueueLeases.claim(c, id, "a", 30_000)), "its holder may claim it again");
    assertTrue(yes(a, c -> QueueLeases.finish(c, id, "a", "COMPLETED", null, null)));
    assertFalse(yes(a, c -> QueueLeases.finish(c, id, "a", "COMPLETED", null, null)), "recorded twice");
    // nobody holds it now, but a completed entry is not runnable and its completion cannot be overwritten
    RoleConnection b = worker("b");
    assertTrue(b.transaction(c -> QueueLeases.claimNext(c, "b", 30_000, 5)).isEmpty());
    assertTrue(yes(b, c -> QueueLeases.claim(c, id, "b", 30_000)));
    assertFalse(yes(b, c -> QueueLeases.finish(c, id, "b", "FAILED", "x", "io")), "a completion overwritten");
    assertEquals("a", completedBy(id));
  }

  @Test
  void hostGrantsHoldTheCapAcrossConcurrentWorkers() throws Exception {
    int cap = 3;
    int workers = 5;
    AtomicInteger inUse = new AtomicInteger();
    AtomicInteger peak = new AtomicInteger();
    AtomicInteger grants = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(workers);
    List<Future<?>> runs = new ArrayList<>();
    for (int w = 0; w < workers; w++) {
      String owner = "w" + w;
      RoleConnection c = worker(owner);
      runs.add(pool.submit(() -> {
        for (int i = 0; i < 60; i++) {
          int got = c.transaction(x -> HostGrantLeases.acquire(x, "example.org:443", owner, 2, cap, 30_000));
          if (got > 0) {
            grants.incrementAndGet();
            peak.accumulateAndGet(inUse.addAndGet(got), Math::max);
            Thread.sleep(2);
            inUse.addAndGet(-got);
            c.transaction(x -> {
              HostGrantLeases.release(x, "example.org:443", owner, got);
              return null;
            });
          }
        }
        return null;
      }));
    }
    for (Future<?> f : runs) {
      f.get(60, TimeUnit.SECONDS);
    }
    pool.shutdown();
    assertTrue(peak.get() <= cap, "the workers together held " + peak.get() + " connections, over the cap of " + cap);
    assertTrue(grants.get() > workers, "grants were made and given back: " + grants.get());
    assertEquals(0, count(worker("reader"), c -> HostGrantLeases.held(c, "example.org:443")));
  }

  @Test
  void aDeadWorkersGrantsReturnAfterTheirLease() throws Exception {
    RoleConnection dead = worker("dead");
    RoleConnection live = worker("live");
    long lease = 300;
    assertEquals(4, count(dead, c -> HostGrantLeases.acquire(c, "h:80", "dead", 6, 4, lease)), "granted up to the cap");
    assertEquals(0, count(live, c -> HostGrantLeases.acquire(c, "h:80", "live", 1, 4, lease)), "over the cap");
    long start = System.nanoTime();
    int got;
    do {
      got = live.transaction(c -> HostGrantLeases.acquire(c, "h:80", "live", 4, 4, 30_000));
      assertTrue(System.nanoTime() - start < 10_000_000_000L, "grants not returned within 10 s of a 0.3 s lease");
    } while (got == 0);
    // the first grant after the lapse may come while part of it is still counted; all four come back
    int total = got;
    while (total < 4) {
      int missing = 4 - total;
      total += count(live, c -> HostGrantLeases.acquire(c, "h:80", "live", missing, 4, 30_000));
    }
    assertEquals(4, total);
    assertEquals(0, count(dead, c -> HostGrantLeases.renew(c, "dead", lease)), "a lapsed grant is not renewed");
  }

  @Test
  void schemaIsAppliedOnceWhenManyWorkersOpenANewDatabaseAtOnce() throws Exception {
    location = PostgresLocation.parse(cluster.locationWithPassword(cluster.newDatabase()), null);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<?>> opens = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      RoleConnection c = worker("opener" + i);
      opens.add(pool.submit(() -> c.transaction(x -> {
        Schema.apply(x);
        return null;
      })));
    }
    for (Future<?> f : opens) {
      f.get(60, TimeUnit.SECONDS);
    }
    pool.shutdown();
    try (Connection c = cluster.connect(dbName()); ResultSet rs = c.createStatement().executeQuery(
        "SELECT version FROM braid_schema")) {
      Set<Integer> versions = new java.util.HashSet<>();
      while (rs.next()) {
        versions.add(rs.getInt(1));
      }
      assertEquals(Set.of(Schema.latest()), versions);
    }
  }

  private static boolean yes(RoleConnection c, RoleConnection.Work<Boolean> work) throws SQLException {
    return c.transaction(work);
  }

  private static int count(RoleConnection c, RoleConnection.Work<Integer> work) throws SQLException {
    return c.transaction(work);
  }

  private String dbName() {
    String url = location.jdbcUrl();
    return url.substring(url.lastIndexOf('/') + 1);
  }

  private String completedBy(long id) throws SQLException {
    try (Connection c = cluster.connect(dbName());
        PreparedStatement s = c.prepareStatement("SELECT completed_by FROM queue WHERE id = ?")) {
      s.setLong(1, id);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return rs.getString(1);
      }
    }
  }
}
