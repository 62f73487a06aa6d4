package dev.braid.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.store.DownloadRecord;
import dev.braid.store.DownloadState;
import dev.braid.store.HostMemory;
import dev.braid.store.ProtocolMemory;
import dev.braid.store.QueueEntry;
import dev.braid.store.RemoteIdentity;
import dev.braid.store.SegmentRecord;
import dev.braid.store.StoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreTest {
  @TempDir Path dir;

  private static final RemoteIdentity REMOTE = new RemoteIdentity("http://h/f", 100, "\"e\"", "Mon, 30 Nov 2026 07:00:00 GMT", true);

  @Test
  void checkpointReplacesSegmentsAndSurvivesReopen() {
    Path db = dir.resolve("sub/state.db");
    Path target = dir.resolve("f.bin");
    long id;
    try (Store store = Store.open(db)) {
      id = store.create("http://h/f", target, REMOTE, List.of(new SegmentRecord(0, 100, 0)));
      store.checkpoint(id, List.of(new SegmentRecord(0, 50, 50), new SegmentRecord(50, 100, 10)));
    }
    try (Store store = Store.open(db)) {
      DownloadRecord r = store.findByTarget(target).orElseThrow();
      assertEquals(id, r.id());
      assertEquals(REMOTE, r.remote());
      assertEquals(DownloadState.ACTIVE, r.status());
      assertEquals(List.of(new SegmentRecord(0, 50, 50), new SegmentRecord(50, 100, 10)), store.segments(id));
    }
  }

  @Test
  void createReplacesEarlierRecordForTheSameTarget() {
    try (Store store = Store.open(dir.resolve("s.db"))) {
      Path target = dir.resolve("f.bin");
      long first = store.create("http://h/f", target, REMOTE, List.of(new SegmentRecord(0, 100, 30)));
      store.checkpoint(first, List.of(new SegmentRecord(0, 100, 100)), Map.of(0, 7));
      long second = store.create("http://h/f", target, REMOTE, List.of(new SegmentRecord(0, 100, 0)));
      assertTrue(store.find(first).isEmpty());
      // the earlier record's segments and sums go with it: left behind, nothing would remove them
      assertEquals(List.of(), store.segments(first));
      assertEquals(Map.of(), store.blockSums(first));
      assertEquals(Map.of(), store.blockSums(second));
      assertEquals(List.of(new SegmentRecord(0, 100, 0)), store.segments(second));
      assertEquals(1, store.list().size());
    }
  }

  @Test
  void hostMemoryIsReplacedAndSurvivesReopen() {
    Path db = dir.resolve("s.db");
    try (Store store = Store.open(db)) {
      assertTrue(store.host("h:80").isEmpty());
      store.remember(new HostMemory("h:80", 0, 8, 1e6, 1));
      store.remember(new HostMemory("h:80", 4, 4, 2e6, 2));
    }
    try (Store store = Store.open(db)) {
      assertEquals(new HostMemory("h:80", 4, 4, 2e6, 2), store.host("h:80").orElseThrow());
    }
  }

  @Test
  void protocolMemoryIsKeptPerHostAndVersionAndSurvivesReopen() {
    Path db = dir.resolve("s.db");
    try (Store store = Store.open(db)) {
      assertTrue(store.protocols("h:443").isEmpty());
      store.remember(new ProtocolMemory("h:443", "http/1.1", true, 1e6, 1));
      store.remember(new ProtocolMemory("h:443", "h2", true, 3e6, 2));
      store.remember(new ProtocolMemory("h:443", "h2", false, 0, 3));
      store.remember(new ProtocolMemory("g:443", "h2", true, 9e6, 4));
      // a host's connection memory is replaced whole; its protocol memory must survive that
      store.remember(new HostMemory("h:443", 0, 8, 1e6, 5));
    }
    try (Store store = Store.open(db)) {
      assertEquals(List.of(new ProtocolMemory("h:443", "h2", false, 0, 3), new ProtocolMemory("h:443", "http/1.1", true, 1e6, 1)),
          store.protocols("h:443"));
    }
  }

  @Test
  void statusAndDelete() {
    try (Store store = Store.open(dir.resolve("s.db"))) {
      long id = store.create("http://h/f", dir.resolve("f"), REMOTE, List.of());
      store.markStatus(id, DownloadState.FAILED, "boom");
      assertEquals("boom", store.find(id).orElseThrow().error());
      store.delete(id);
      assertFalse(store.find(id).isPresent());
      assertTrue(store.segments(id).isEmpty());
    }
  }

  @Test
  void theLastCheckpointRecordsProgressSumsAndCompletionTogether() {
    Path db = dir.resolve("s.db");
    long id;
    try (Store store = Store.open(db)) {
      id = store.create("http://h/f", dir.resolve("f"), REMOTE, List.of(new SegmentRecord(0, 100, 0)));
      store.markStatus(id, DownloadState.FAILED, "an earlier pass failed");
      store.complete(id, List.of(new SegmentRecord(0, 100, 100)), java.util.Map.of(0, 42));
    }
    try (Store store = Store.open(db)) {
      DownloadRecord r = store.find(id).orElseThrow();
      assertEquals(DownloadState.COMPLETED, r.status());
      assertEquals(null, r.error());
      assertEquals(List.of(new SegmentRecord(0, 100, 100)), store.segments(id));
      assertEquals(java.util.Map.of(0, 42), store.blockSums(id));
    }
  }

  @Test
  void garbageFileIsReportedAsNotADatabase() throws Exception {
    Path db = dir.resolve("bad.db");
    Files.write(db, new byte[4096]);
    Files.writeString(db, "this is not sqlite at all, just text that fills the header page");
    StoreException e = assertThrows(StoreException.class, () -> Store.open(db));
    assertTrue(e.getMessage().contains(db.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("not a SQLite database"), e.getMessage());
  }

  @Test
  void newerSchemaIsRefused() throws Exception {
    Path db = dir.resolve("new.db");
    try (var c = DriverManager.getConnection("jdbc:sqlite:" + db); var s = c.createStatement()) {
      s.execute("PRAGMA user_version = 99");
    }
    StoreException e = assertThrows(StoreException.class, () -> Store.open(db));
    assertTrue(e.getMessage().contains("newer"), e.getMessage());
  }

  @Test
  void invalidSegmentIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> new SegmentRecord(10, 20, 11));
    assertTrue(new SegmentRecord(10, 20, 10).complete());
    assertFalse(new SegmentRecord(0, -1, 10).complete());
  }

  @Test
  void manyOpenersOfANewDatabaseAtOnceAllGetTheSchema() throws Exception {
    int n = 8;
    var pool = java.util.concurrent.Executors.newFixedThreadPool(n);
    try {
      // several rounds, each on a new file: the race is at a database's first open (its switch to
      // WAL answered SQLITE_BUSY at once to a second opener; CI met it once in 8 openers)
      for (int round = 0; round < 10; round++) {
        Path db = dir.resolve("fresh-" + round + ".db");
        var start = new java.util.concurrent.CountDownLatch(1);
        java.util.List<java.util.concurrent.Future<Integer>> opened = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
          opened.add(pool.submit(() -> {
            start.await();
            try (Store s = Store.open(db)) {
              return s.queue().all().size();
            }
          }));
        }
        start.countDown();
        for (var f : opened) {
          org.junit.jupiter.api.Assertions.assertEquals(0, f.get());
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void queueEntriesOfAUrlAreFoundByTheirFirstLineOnly() {
    try (Store store = Store.open(dir.resolve("s.db"))) {
      QueueTable q = store.queue();
      Path d = dir.resolve("out");
      QueueEntry plain = q.add(List.of("http://h/a_b"), null, d, java.util.Map.of(), 0, "me");
      QueueEntry mirrored = q.add(List.of("http://h/a_b", "http://m/a_b"), null, d, java.util.Map.of(), 0, "me");
      q.add(List.of("http://h/aXb"), null, d, java.util.Map.of(), 0, "me");
      q.add(List.of("http://other/x", "http://h/a_b"), null, d, java.util.Map.of(), 0, "me");
      assertEquals(List.of(mirrored.id(), plain.id()),
          q.matching("http://h/a_b", null, d).stream().map(QueueEntry::id).toList());
    }
  }

  @Test
  void lookupsUseAnIndexNotAScanOfTheHistory() throws Exception {
    Store.open(dir.resolve("s.db")).close();
    try (var c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("s.db"))) {
      assertTrue(plan(c, QueueReads.MATCHING).contains("USING INDEX queue_by_url"), plan(c, QueueReads.MATCHING));
      assertTrue(plan(c, QueueReads.UNFINISHED_WITH_FILE).contains("USING INDEX queue_unfinished_by_file"),
          plan(c, QueueReads.UNFINISHED_WITH_FILE));
      assertTrue(plan(c, ResumeReads.UNFINISHED).contains("USING INDEX downloads_by_url"), plan(c, ResumeReads.UNFINISHED));
      assertTrue(plan(c, QueueLeases.OWNED).contains("USING INDEX queue_by_owner"), plan(c, QueueLeases.OWNED));
      assertTrue(plan(c, QueueReads.RUNNABLE).contains("USING COVERING INDEX queue_by_state"), plan(c, QueueReads.RUNNABLE));
      assertTrue(plan(c, QueueFeed.CHANGED).contains("USING INDEX queue_by_seq"), plan(c, QueueFeed.CHANGED));
      assertTrue(plan(c, QueueFeed.REMOVED).contains("USING INDEX queue_removed_by_seq"), plan(c, QueueFeed.REMOVED));
    }
  }

  @Test
  void startingAnEntryClaimsAndActivatesItOnlyWhenItMayRun() {
    try (Store store = Store.open(dir.resolve("s.db"))) {
      QueueTable q = store.queue();
      QueueEntry free = q.add(List.of("http://h/a"), null, dir, java.util.Map.of(), 0, "me");
      QueueEntry started = q.start(free.id(), "me", e -> true).orElseThrow();
      assertEquals(DownloadState.ACTIVE, started.state());
      assertEquals(started, q.get(free.id()).orElseThrow(), "what it returns is what it stored");

      QueueEntry paused = q.add(List.of("http://h/b"), null, dir, java.util.Map.of(), 0, "me");
      q.setState(paused.id(), DownloadState.PAUSED, null, null);
      assertTrue(q.start(paused.id(), "me", e -> false).isEmpty());
      assertEquals(null, q.get(paused.id()).orElseThrow().owner(), "a paused entry's claim is given up");

      QueueEntry theirs = q.add(List.of("http://h/c"), null, dir, java.util.Map.of(), 0, "them");
      assertTrue(q.start(theirs.id(), "me", e -> true).isEmpty(), "held by a live owner");
      assertEquals("them", q.get(theirs.id()).orElseThrow().owner());
      assertEquals(DownloadState.QUEUED, q.get(theirs.id()).orElseThrow().state());
      assertEquals("me", q.start(theirs.id(), "me", e -> false).orElseThrow().owner(), "its owner is gone");
      assertTrue(q.start(9999, "me", e -> false).isEmpty());
    }
  }

  @Test
  void changesByAnotherConnectionAreToldApartFromOwnOnes() {
    Path db = dir.resolve("s.db");
    try (Store mine = Store.open(db); Store theirs = Store.open(db)) {
      assertTrue(mine.changedByOthers(), "the first call cannot know what came before");
      assertFalse(mine.changedByOthers());
      mine.queue().add(List.of("http://h/a"), null, dir, java.util.Map.of(), 0, "me");
      assertFalse(mine.changedByOthers(), "its own commit");
      theirs.queue().add(List.of("http://h/b"), null, dir, java.util.Map.of(), 0, "them");
      assertTrue(mine.changedByOthers(), "another connection's commit");
      assertFalse(mine.changedByOthers());
    }
  }

  @Test
  void everyChangeOfAnEntryIsNumberedInCommitOrderAcrossConnections() {
    Path db = dir.resolve("s.db");
    try (Store mine = Store.open(db); Store theirs = Store.open(db)) {
      QueueTable q = mine.queue();
      assertEquals(0, q.latestChange());
      QueueEntry a = q.add(List.of("http://h/a"), null, dir, java.util.Map.of(), 0, "me");
      QueueEntry b = q.add(List.of("http://h/b"), null, dir, java.util.Map.of(), 0, "me");
      long afterAdds = q.latestChange();
      assertEquals(List.of(a.id(), b.id()), ids(q.changedBetween(0, afterAdds)));
      assertEquals(List.of(), q.changedBetween(afterAdds, afterAdds));

      theirs.queue().setState(a.id(), DownloadState.PAUSED, null, null);
      long afterPause = q.latestChange();
      assertTrue(afterPause > afterAdds);
      List<QueueEntry> changed = q.changedBetween(afterAdds, afterPause);
      assertEquals(List.of(a.id()), ids(changed), "only the entry another connection changed");
      assertEquals(DownloadState.PAUSED, changed.get(0).state(), "as it now stands");

      q.setState(b.id(), DownloadState.PAUSED, null, null);
      theirs.queue().setState(a.id(), DownloadState.QUEUED, null, null);
      assertEquals(List.of(b.id(), a.id()), ids(q.changedBetween(afterPause, q.latestChange())), "oldest change first");
      assertEquals(List.of(b.id()), ids(q.changedBetween(afterPause, afterPause + 1)),
          "a change after the bound waits for the next look");

      // a removal takes a number past every other, also when the row held the highest
      long beforeRemoval = q.latestChange();
      theirs.queue().remove(a.id());
      long afterRemoval = q.latestChange();
      assertTrue(afterRemoval > beforeRemoval);
      assertEquals(List.of(a.id()), q.removedBetween(beforeRemoval, afterRemoval));
      assertEquals(List.of(), ids(q.changedBetween(beforeRemoval, afterRemoval)));
      q.setState(b.id(), DownloadState.QUEUED, null, null);
      assertEquals(List.of(b.id()), ids(q.changedBetween(afterRemoval, q.latestChange())), "numbers go on past it");
    }
  }

  @Test
  void aVersion7DatabaseKeepsItsEntriesAndNumbersThem() throws Exception {
    Path db = dir.resolve("s.db");
    try (Store s = Store.open(db)) {
      s.queue().add(List.of("http://h/a"), null, dir, java.util.Map.of(), 0, "me");
      s.queue().add(List.of("http://h/b"), null, dir, java.util.Map.of(), 0, "me");
    }
    // back to the schema before change numbers
    try (var c = DriverManager.getConnection("jdbc:sqlite:" + db); var st = c.createStatement()) {
      st.execute("DROP TRIGGER queue_seq_on_insert");
      st.execute("DROP TRIGGER queue_seq_on_update");
      st.execute("DROP TRIGGER queue_seq_on_delete");
      st.execute("DROP TABLE queue_removed");
      st.execute("DROP INDEX queue_by_seq");
      st.execute("ALTER TABLE queue DROP COLUMN seq");
      // and before the later steps
      st.execute("DROP INDEX queue_unfinished_by_file");
      st.execute("DROP TABLE queue_headers");
      st.execute("DROP INDEX queue_by_state");
      st.execute("CREATE INDEX queue_by_state ON queue (state, priority DESC, id)");
      st.execute("ALTER TABLE queue DROP COLUMN retry_at");
      st.execute("ALTER TABLE queue DROP COLUMN retry_count");
      st.execute("ALTER TABLE queue DROP COLUMN retry_since");
      st.execute("PRAGMA user_version = 7");
    }
    try (Store s = Store.open(db)) {
      QueueTable q = s.queue();
      assertEquals(2, q.all().size());
      long before = q.latestChange();
      assertTrue(before >= 2, "existing entries are numbered");
      QueueEntry c = q.add(List.of("http://h/c"), null, dir, java.util.Map.of(), 0, "me");
      assertEquals(List.of(c.id()), ids(q.changedBetween(before, q.latestChange())));
    }
  }

  private static List<Long> ids(List<QueueEntry> entries) {
    return entries.stream().map(QueueEntry::id).toList();
  }

  private static String plan(java.sql.Connection c, String sql) throws Exception {
    StringBuilder b = new StringBuilder();
    try (var s = c.prepareStatement("EXPLAIN QUERY PLAN " + sql)) {
      s.setString(1, "http://h/f");
      try (var rs = s.executeQuery()) {
        while (rs.next()) {
          b.append(rs.getString("detail")).append('\n');
        }
      }
    }
    return b.toString();
  }
}
