package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.store.StateStore;
import dev.braid.store.StoreLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a Braid keeps its state: a file, a location a provider opens, or a store it is given. */
class StoreChoiceTest {
  @TempDir Path dir;

  @Test
  void aLocationPathOpensTheSqliteDefault() throws Exception {
    Path db = dir.resolve("by-location.db");
    try (Braid braid = Braid.builder().stateLocation(db.toString()).build()) {
      braid.saveSetting("k", "v");
    }
    assertTrue(Files.exists(db));
    try (Braid braid = Braid.builder().stateDatabase(db).build()) {
      assertEquals(Map.of("k", "v"), braid.settings());
    }
  }

  @Test
  void aGivenStoreIsUsedAndLeftOpenForItsOwner() throws Exception {
    try (StateStore store = StoreLocation.open(dir.resolve("given.db").toString())) {
      try (Braid braid = Braid.builder().store(store).build()) {
        braid.saveSetting("k", "v");
      }
      // Braid closed; the store it was given still answers
      assertEquals(Map.of("k", "v"), store.settings());
      try (Braid again = Braid.builder().store(store).build()) {
        assertEquals("v", again.settings().get("k"));
      }
    }
  }

  @Test
  void aUrlNoStoreOnTheClassPathOpensIsRefusedAtTheSetterWithoutItsPassword() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Braid.builder().stateLocation("postgresql://braid:hunter2@127.0.0.1:5432/braid"));
    assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
    assertTrue(e.getMessage().contains("127.0.0.1:5432/braid"), e.getMessage());
  }
}
