package dev.braid.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.store.ChangeMark;
import dev.braid.store.DownloadState;
import dev.braid.store.StateStore;
import dev.braid.store.StoreLocation;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SQLite store as the engine finds and sees it: through the provider SPI and the API's interfaces. */
class StoreProviderTest {
  @TempDir Path dir;

  @Test
  void aPlainPathOpensTheSqliteStoreThroughTheServiceLoader() {
    Path db = dir.resolve("state.db");
    try (StateStore s = StoreLocation.open(db.toString())) {
      assertInstanceOf(Store.class, s);
      assertEquals(db.toAbsolutePath().toString(), s.location());
      s.saveSetting("k", "v");
      assertEquals(Map.of("k", "v"), s.settings());
    }
  }

  @Test
  void aUrlNoProviderOpensIsRefusedWithoutItsPassword() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> StoreLocation.open("postgresql://braid:s3cret@db.example:5432/braid?sslmode=require"));
    assertFalse(e.getMessage().contains("s3cret"), e.getMessage());
    assertTrue(e.getMessage().contains("postgresql://braid:***@db.example:5432/braid"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> StoreLocation.check(" "));
  }

  @Test
  void redactionHidesEveryFormOfAUrlPassword() {
    assertEquals("postgresql://u:***@h/db", StoreLocation.redact("postgresql://u:p@ss:w@h/db"));
    assertEquals("postgresql://h/db?user=u&password=***&sslmode=require",
        StoreLocation.redact("postgresql://h/db?user=u&password=pw&sslmode=require"));
    assertEquals("postgresql://h/db?PASSWORD=***", StoreLocation.redact("postgresql://h/db?PASSWORD=pw"));
    assertEquals("postgresql://u@h/db", StoreLocation.redact("postgresql://u@h/db"));
    assertEquals("/tmp/a:b@c/state.db", StoreLocation.redact("/tmp/a:b@c/state.db"), "a path is shown as it is");
  }

  @Test
  void aUrlIsASchemeAndColonSlashSlashAndNothingElseIs() {
    assertTrue(StoreLocation.isUrl("postgresql://h/db"));
    assertTrue(StoreLocation.isUrl("svn+ssh.v-2://h"));
    assertFalse(StoreLocation.isUrl("state.db"));
    assertFalse(StoreLocation.isUrl("/tmp/a://b"), "a path with :// further on");
    assertFalse(StoreLocation.isUrl("1pg://h"), "a scheme starts with a letter");
    assertFalse(StoreLocation.isUrl("://h"));
    assertFalse(StoreLocation.isUrl("c:/x://y"));
    assertFalse(StoreLocation.isUrl("pg:/h"));
  }

  @Test
  void theChangeMarkTellsOthersWritesFromOwn() {
    Path db = dir.resolve("state.db");
    try (Store mine = Store.open(db); Store theirs = Store.open(db)) {
      ChangeMark first = mine.queue().mark();
      assertTrue(first.othersWrote(), "the first look cannot know what came before");
      assertEquals(0, first.latestChange());
      long id = mine.queue().add(List.of("http://h/a"), null, dir, Map.of(), 0, "me", DownloadState.QUEUED).id();
      ChangeMark own = mine.queue().mark();
      assertFalse(own.othersWrote(), "its own add");
      assertEquals(id, own.newestId());
      theirs.queue().setState(id, DownloadState.PAUSED, null, null);
      ChangeMark after = mine.queue().mark();
      assertTrue(after.othersWrote(), "another connection's update");
      assertTrue(after.latestChange() > own.latestChange());
      assertEquals(List.of(id), mine.queue().changedBetween(own.latestChange(), after.latestChange()).stream()
          .map(e -> e.id()).toList());
    }
  }
}
