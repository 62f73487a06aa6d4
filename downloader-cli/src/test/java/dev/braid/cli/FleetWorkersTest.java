package dev.braid.cli;

import static dev.braid.cli.CliTestSupport.SIGKILLED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.store.postgres.PostgresCluster;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fleet mode with real processes: three {@code braid daemon} workers on one PostgreSQL queue and
 * one test server, one of them killed with SIGKILL mid-batch. Every file arrives byte-identical,
 * each entry's completion is recorded once, the per-host cap holds across the workers as the
 * server counts requests at work, and the dead worker's entries are taken over within its lease.
 */
class FleetWorkersTest {
  private static final int FILES = 24;
  private static final int SIZE = 384 << 10;
  private static final int CAP = 3;
  /** Seconds a dead worker holds its entries: short, so the test is quick. */
  private static final int LEASE = 3;

  private static PostgresCluster cluster;

  @TempDir Path work;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = PostgresCluster.start();
  }

  @AfterAll
  static void stopCluster() throws Exception {
    cluster.close();
  }

  @Test
  void threeWorkersShareOneQueueAndTakeOverAKilledOnesEntries() throws Exception {
    database = cluster.newDatabase();
    String location = cluster.locationWithPassword(database) + "&lease=" + LEASE;
    Path downloads = Files.createDirectories(work.resolve("downloads"));
    List<Content> contents = new ArrayList<>();
    try (TestServer server = TestServer.start()) {
      StringBuilder list = new StringBuilder();
      for (int i = 0; i < FILES; i++) {
        Content c = Content.random(SIZE, 1000 + i);
        contents.add(c);
        // ~1.5 s a file on one connection: the batch outlasts the kill and the take-over
        server.serve("/f" + i + ".bin", c).etag("\"f" + i + "\"").rateLimitPerConnection(256 << 10);
        list.append(server.url("/f" + i + ".bin")).append('\n');
      }
      Path input = work.resolve("list.txt");
      Files.writeString(input, list.toString(), StandardCharsets.UTF_8);
      List<RpcDaemon> workers = new ArrayList<>();
      try {
        for (int w = 0; w < 3; w++) {
          // a home of its own per worker, as on separate machines: its lock, port and secret files
          Path home = Files.createDirectories(work.resolve("worker" + w));
          workers.add(RpcDaemon.start(home, location, downloads, "s3cret", "-j", "2",
              "--max-connections-per-host", Integer.toString(CAP)));
        }
        // added for the fleet, claimed by nobody: the enqueuing process downloads nothing itself
        CliProcess.Result queued = CliProcess.run(work, "get", "-i", input.toString(), "--detach", "-d",
            downloads.toString(), "--state-db", location);
        queued.assertExit(ExitCode.OK);
        assertEquals(FILES, queued.stdout().strip().split("\n").length, queued.describe());
        awaitCount("SELECT count(*) FROM queue WHERE state = 'COMPLETED'", FILES / 4, 30_000);
        assertFleetShown(workers, server.url("/"));
        // the victim: a worker driving something right now
        String victimOwner = strings("SELECT owner FROM queue WHERE state = 'ACTIVE' AND owner IS NOT NULL ORDER BY id").get(0);
        RpcDaemon victim = workers.stream().filter(d -> victimOwner.split(":")[1].equals(Long.toString(d.process.pid())))
            .findFirst().orElseThrow();
        Set<Long> held = ids("SELECT id FROM queue WHERE owner = ? AND state = 'ACTIVE'", victimOwner);
        assertFalse(held.isEmpty(), "the worker to kill drives nothing: the kill would prove nothing");
        assertEquals(SIGKILLED, victim.process.kill().exit());
        long killedAt = System.nanoTime();
        List<RpcDaemon> alive = new ArrayList<>(workers);
        alive.remove(victim);
        awaitCount("SELECT count(*) FROM queue WHERE owner = '" + victimOwner + "'", 0, -1, (LEASE + 5) * 1000L);
        double takenAfter = (System.nanoTime() - killedAt) / 1e9;
        assertTrue(takenAfter >= LEASE - 1.0, "taken over after " + takenAfter + " s, before the lease of " + LEASE + " s lapsed");

        awaitCount("SELECT count(*) FROM queue WHERE state = 'COMPLETED'", FILES, 45_000);
        Map<Long, String> completedBy = completions();
        assertEquals(FILES, completedBy.size());
        for (long id : held) {
          assertFalse(victimOwner.equals(completedBy.get(id)), "entry " + id + " completed by the killed worker");
        }
        Set<String> finishers = new HashSet<>(completedBy.values());
        assertTrue(finishers.size() >= 2, "the live workers shared the batch: " + finishers);
        assertEquals(0, count("SELECT count(*) FROM queue WHERE completed_at IS NULL"), "a completion without its record");
        assertEquals(FILES, count("SELECT count(DISTINCT target) FROM downloads WHERE status = 'COMPLETED'"));

        assertTrue(server.peakConcurrentRequests() <= CAP,
            "the server answered " + server.peakConcurrentRequests() + " requests at once, over the fleet's cap of " + CAP);
        assertTrue(server.peakConcurrentRequests() >= 2, "no two requests ever ran at once: " + server.peakConcurrentRequests());
        for (RpcDaemon live : alive) {
          CliProcess.Result r = live.process.terminate();
          r.assertExit(ExitCode.OK);
          assertFalse(r.stderr().contains(PostgresCluster.PASSWORD), "a worker showed the database password: " + r.stderr());
        }
      } finally {
        for (RpcDaemon d : workers) {
          d.close();
        }
      }
    }
    for (int i = 0; i < FILES; i++) {
      assertEquals(contents.get(i).sha256Hex(), CliTestSupport.sha256Hex(downloads.resolve("f" + i + ".bin")), "f" + i);
    }
  }

  /**
   * {@code braid.fleet} of the first worker, mid-batch: itself first, only the three workers (by
   * pid), each gid once and active in the database, and the host's grants within the cap.
   */
  private void assertFleetShown(List<RpcDaemon> workers, String serverUrl) throws Exception {
    JsonNode fleet = workers.get(0).call("braid.fleet");
    Set<String> pids = new HashSet<>();
    workers.forEach(w -> pids.add(Long.toString(w.process.pid())));
    JsonNode shown = fleet.get("workers");
    assertEquals(fleet.get("self").asText(), shown.get(0).get("name").asText(), "the asked worker first: " + fleet);
    assertEquals(Long.toString(workers.get(0).process.pid()), fleet.get("self").asText().split(":")[1]);
    Set<String> gids = new HashSet<>();
    for (JsonNode w : shown) {
      assertTrue(pids.contains(w.get("name").asText().split(":")[1]), "a worker nobody started: " + fleet);
      assertTrue(w.get("alive").asBoolean(), "a live worker shown dead: " + fleet);
      w.get("gids").forEach(g -> assertTrue(gids.add(g.asText()), "a download driven by two workers: " + fleet));
    }
    assertTrue(shown.size() >= 2, "the batch runs on several workers: " + fleet);
    String host = "127.0.0.1:" + URI.create(serverUrl).getPort();
    int granted = 0;
    for (JsonNode g : fleet.get("grants")) {
      assertEquals(host, g.get("host").asText());
      granted += g.get("connections").asInt();
    }
    assertTrue(granted >= 1 && granted <= CAP, "the host's grants are within the cap of " + CAP + ": " + fleet);
  }

  /** The test's database, read directly to see the queue as the workers left it. */
  private String database;

  private Connection connect() throws SQLException {
    return cluster.connect(database);
  }

  private void awaitCount(String sql, int atLeast, long timeoutMillis) throws Exception {
    awaitCount(sql, atLeast, 1, timeoutMillis);
  }

  /** Polls until the count reaches {@code target} from the side {@code direction} says (1: at least, -1: at most). */
  private void awaitCount(String sql, int target, int direction, long timeoutMillis) throws Exception {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
    int n = count(sql);
    while ((direction > 0 ? n < target : n > target) && System.nanoTime() < deadline) {
      Thread.sleep(50);
      n = count(sql);
    }
    int last = n;
    assertTrue(direction > 0 ? last >= target : last <= target, () -> sql + " gave " + last + ", not " + target + " in time");
  }

  private int count(String sql) throws SQLException {
    try (Connection c = connect(); ResultSet rs = c.createStatement().executeQuery(sql)) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private Set<Long> ids(String sql, String arg) throws SQLException {
    try (Connection c = connect(); PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, arg);
      Set<Long> out = new HashSet<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getLong(1));
        }
      }
      return out;
    }
  }

  private List<String> strings(String sql) throws SQLException {
    try (Connection c = connect(); ResultSet rs = c.createStatement().executeQuery(sql)) {
      List<String> out = new ArrayList<>();
      while (rs.next()) {
        out.add(rs.getString(1));
      }
      return out;
    }
  }

  private Map<Long, String> completions() throws SQLException {
    try (Connection c = connect(); ResultSet rs = c.createStatement().executeQuery(
        "SELECT id, completed_by FROM queue WHERE state = 'COMPLETED'")) {
      Map<Long, String> out = new HashMap<>();
      while (rs.next()) {
        out.put(rs.getLong(1), rs.getString(2));
      }
      return out;
    }
  }
}
