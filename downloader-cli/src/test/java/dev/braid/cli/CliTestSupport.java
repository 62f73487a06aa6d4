package dev.braid.cli;

import dev.braid.testserver.Content;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.function.LongSupplier;

/** Small shared helpers of the CLI tests: hashing files, reading the recorded progress, bounded polling. */
final class CliTestSupport {
  static final long MIB = 1L << 20;

  private CliTestSupport() {}

  static String sha256Hex(Path file) throws IOException {
    return Content.sha256Hex(file);
  }

  /**
   * The bytes the state database records as durably on disk, summed over every stored segment
   * (each test uses a database of its own with one download), or -1 if it cannot be read right
   * now. Reads the {@code segments} table directly, read-only, so it may run while braid writes
   * (WAL) and never rewrites the database a crashed run left.
   */
  static long recordedBytes(Path stateDb) {
    if (!Files.exists(stateDb)) {
      return -1;
    }
    Properties p = new Properties();
    p.setProperty("open_mode", "1"); // SQLITE_OPEN_READONLY
    p.setProperty("busy_timeout", "2000");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + stateDb.toAbsolutePath(), p);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COALESCE(SUM(done), 0) FROM segments")) {
      return rs.next() ? rs.getLong(1) : -1;
    } catch (SQLException e) {
      return -1;
    }
  }

  /** Polls {@code value} every 20 ms until it reaches {@code atLeast}; returns it, or the last value at the deadline. */
  static long awaitAtLeast(LongSupplier value, long atLeast, long timeoutMillis, CliProcess whileAlive)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
    long v = value.getAsLong();
    while (v < atLeast && System.nanoTime() < deadline && (whileAlive == null || whileAlive.isAlive())) {
      Thread.sleep(20);
      v = value.getAsLong();
    }
    return v;
  }

  static String mib(long bytes) {
    return String.format(java.util.Locale.ROOT, "%.2f MiB", bytes / (double) MIB);
  }
}
