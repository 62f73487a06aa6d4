package dev.braid.interop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/** Reads what a running or killed braid recorded in its state database, read-only. */
final class StateDatabase {
  private StateDatabase() {}

  /**
   * The bytes recorded as durably on disk, summed over every segment (each test's database holds
   * its own downloads), or -1 while the database cannot be read (not made yet, or busy).
   */
  static long recordedBytes(Path db) {
    if (!Files.exists(db)) {
      return -1;
    }
    Properties p = new Properties();
    p.setProperty("open_mode", "1"); // SQLITE_OPEN_READONLY: never rewrites the database a killed run left
    p.setProperty("busy_timeout", "2000");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath(), p);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COALESCE(SUM(done), 0) FROM segments")) {
      return rs.next() ? rs.getLong(1) : -1;
    } catch (SQLException e) {
      return -1;
    }
  }

  /** Polls every 20 ms until at least {@code bytes} are recorded, the process ended, or the time ran out. */
  static long awaitRecorded(Path db, long bytes, long timeoutMillis, BraidCommand.Running whileAlive)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
    long v = recordedBytes(db);
    while (v < bytes && System.nanoTime() < deadline && whileAlive.isAlive()) {
      Thread.sleep(20);
      v = recordedBytes(db);
    }
    return v;
  }
}
