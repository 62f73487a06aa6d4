package dev.braid.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.store.DownloadState;
import dev.braid.store.ProcessOwner;
import dev.braid.store.QueueEntry;
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

  /** The SQLite store's own rule for claims (the rest is the store contract's): the process table, at once. */
  @Test
  void anEntryOfAProcessThatEndedIsTakenOverAtOnceAndOneOfARunningProcessIsNot() throws Exception {
    Process child = new ProcessBuilder("sleep", "30").start();
    String ended = ProcessOwner.of(child.toHandle());
    child.destroy();
    child.waitFor();
    String other = "worker.example:7:7";
    try (Store store = Store.open(dir.resolve("s.db"))) {
      QueueTable q = store.queue();
      QueueEntry orphan = q.add(List.of("http://h/a"), null, dir, Map.of(), 0, ended, DownloadState.QUEUED);
      assertFalse(q.held(orphan), "held by a process that ended");
      assertEquals(other, q.start(orphan.id(), other).orElseThrow().owner(), "its owner is gone");
      QueueEntry mine = q.add(List.of("http://h/b"), null, dir, Map.of(), 0, ProcessOwner.self(), DownloadState.QUEUED);
      assertTrue(q.held(mine));
      assertTrue(q.start(mine.id(), other).isEmpty(), "taken from a running process");
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
