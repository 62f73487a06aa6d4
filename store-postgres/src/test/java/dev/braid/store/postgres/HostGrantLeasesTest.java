package dev.braid.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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

/** The grant SQL and the schema against a real PostgreSQL server, with real concurrent connections. */
@ExtendWith(OneCluster.class)
class HostGrantLeasesTest {
  private static PostgresCluster cluster;
  private PostgresLocation location;
  private final List<RoleConnection> opened = new ArrayList<>();

  @BeforeAll
  static void shareCluster(PostgresCluster shared) {
    cluster = shared;
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
      Set<Integer> versions = new HashSet<>();
      while (rs.next()) {
        versions.add(rs.getInt(1));
      }
      assertEquals(Set.of(Schema.latest()), versions);
    }
  }

  private static int count(RoleConnection c, RoleConnection.Work<Integer> work) throws SQLException {
    return c.transaction(work);
  }

  private String dbName() {
    String url = location.jdbcUrl();
    return url.substring(url.lastIndexOf('/') + 1);
  }
}
