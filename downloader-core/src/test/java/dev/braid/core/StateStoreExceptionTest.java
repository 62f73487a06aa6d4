package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.store.StoreException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A store that another process holds surfaces as the core's own exception, not the state module's. */
class StateStoreExceptionTest {
  @TempDir Path dir;

  @Test
  void aWriteWhileAnotherProcessHoldsTheDatabaseFailsWithStateStoreException() throws Exception {
    Path db = dir.resolve("state.db");
    try (Braid braid = Braid.builder().stateDatabase(db).build();
        Connection other = DriverManager.getConnection("jdbc:sqlite:" + db)) {
      braid.saveSetting("k", "v1");
      other.setAutoCommit(false);
      try (Statement s = other.createStatement()) {
        // the other side's open write transaction holds the database's write lock
        s.executeUpdate("INSERT INTO settings (key, value) VALUES ('other', 'x')");
      }
      StateStoreException e = assertThrows(StateStoreException.class, () -> braid.saveSetting("k", "v2"));
      assertTrue(e.getMessage().contains("locked by another process"), e.getMessage());
      assertInstanceOf(StoreException.class, e.getCause());
      // reads go on in WAL mode while the other side writes
      assertEquals("v1", braid.settings().get("k"));
      other.rollback();
      braid.saveSetting("k", "v3");
      assertEquals("v3", braid.settings().get("k"));
    }
  }
}
