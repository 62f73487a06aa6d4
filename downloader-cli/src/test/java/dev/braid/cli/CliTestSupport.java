package dev.braid.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.Properties;
import java.util.function.LongSupplier;

/** Small shared helpers of the CLI tests: hashing files, reading the recorded progress, bounded polling. */
final class CliTestSupport {
  static final long MIB = 1L << 20;

  private CliTestSupport() {}

  static String sha256Hex(Path file) throws IOException {
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
    byte[] buf = new byte[1 << 20];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buf)) > 0; ) {
        md.update(buf, 0, n);
      }
    }
    return HexFormat.of().formatHex(md.digest());
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
