package dev.braid.core;

import dev.braid.core.time.FakeTicker;
import dev.braid.store.DownloadState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.Resource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The heartbeat's judgement of downloads waiting here for a slot. A download that ends here
 * releases its claim a moment before it leaves the waiting set; a heartbeat reading the store in
 * that moment once told its caller it was "being downloaded by another braid process (pid ?)"
 * (a batch under load, CliQueueTest). An unclaimed entry is nobody else's.
 */
class QueueHeartbeatTest extends DownloadHarness {

  @Test
  void anEntryWaitingHereWhoseClaimWasReleasedIsNotCalledAnotherProcesssAndRuns() throws Exception {
    braid.close();
    // the queue beats every 0.5 s of its ticker: the test moves it rather than wait for two beats
    FakeTicker ticker = new FakeTicker();
    braid = Braid.builder().stateDatabase(dir.resolve("state.db")).maxActiveDownloads(1).ticker(ticker).build();
    Content first = Content.random(2_000_000, 1);
    Content second = Content.random(100_000, 2);
    Resource slow = server.serve("/first", first).rateLimitPerConnection(200_000);
    server.serve("/second", second);
    Download running = braid.submit(request("/first", dir.resolve("first")).maxConnections(1).build());
    awaitState(running, DownloadState.ACTIVE);
    Download waiting = braid.submit(request("/second", dir.resolve("second")).build());
    try (Connection store = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("state.db"))) {
      // the state a release by this process leaves while the entry is still waiting here
      try (PreparedStatement s = store.prepareStatement("UPDATE queue SET owner = NULL WHERE id = ?")) {
        s.setLong(1, waiting.id());
        assertEquals(1, s.executeUpdate());
      }
      // the first heartbeat after the release read it; the one after that proves it was judged
      long seen = heartbeatOf(store, running.id());
      for (int beats = 0; beats < 2; beats++) {
        long before = seen;
        ticker.advance(Duration.ofMillis(500));
        Awaitility.await("a heartbeat").atMost(Duration.ofSeconds(20)).until(() -> heartbeatOf(store, running.id()) != before);
        seen = heartbeatOf(store, running.id());
      }
    }
    assertFalse(waiting.result().isDone(), () -> "judged: " + waiting.result());
    assertEquals(DownloadState.QUEUED, waiting.state());
    slow.rateLimitPerConnection(0);
    assertEquals(first.sha256Hex(), sha256(await(running).file()));
    assertEquals(second.sha256Hex(), sha256(await(waiting).file()));
  }

  private static void awaitState(Download d, DownloadState s) {
    Awaitility.await(d + " " + s).atMost(Duration.ofSeconds(20)).until(() -> d.state() == s);
  }

  private static long heartbeatOf(Connection store, long id) throws SQLException {
    try (PreparedStatement s = store.prepareStatement("SELECT heartbeat_ms FROM queue WHERE id = ?")) {
      s.setLong(1, id);
      try (ResultSet rs = s.executeQuery()) {
        assertTrue(rs.next(), "entry " + id);
        return rs.getLong(1);
      }
    }
  }
}
