package dev.braid.cli;

import static org.awaitility.Awaitility.await;

import dev.braid.testserver.Content;
import dev.braid.testserver.Resource;
import dev.braid.testserver.TestServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.LongSupplier;

/** Small shared helpers of the CLI tests: hashing files, reading the recorded progress, bounded polling. */
final class CliTestSupport {
  static final long MIB = 1L << 20;
  /** Linux reports a child killed by SIGKILL as exit value 128 + 9. */
  static final int SIGKILLED = 137;

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

  /** Body bytes {@code server} sent so far, once the connections of a dead client have closed (failing after 5 s). */
  static long settledBytesSent(TestServer server) {
    await("the dead client's connections closed").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10))
        .until(() -> server.openConnections() == 0);
    return server.bodyBytesSent();
  }

  /** The files of a list test, served throttled, and their list written to list.txt. */
  record ServedList(List<Content> contents, List<Resource> resources) {}

  /**
   * Serves {@code files} files of {@code size} at /PREFIXi from {@code server}, each connection at
   * {@code rate}, and lists them in {@code work}/list.txt.
   */
  static ServedList serveList(TestServer server, Path work, String prefix, int files, long size, long rate) throws IOException {
    StringBuilder list = new StringBuilder();
    List<Content> contents = new ArrayList<>();
    List<Resource> resources = new ArrayList<>();
    for (int i = 0; i < files; i++) {
      Content c = Content.random(size, prefix.hashCode() + i);
      contents.add(c);
      resources.add(server.serve("/" + prefix + i, c).etag("\"" + prefix + i + "\"").rateLimitPerConnection(rate));
      list.append(server.url("/" + prefix + i)).append('\n');
    }
    Files.writeString(work.resolve("list.txt"), list);
    return new ServedList(contents, resources);
  }

  static String mib(long bytes) {
    return String.format(java.util.Locale.ROOT, "%.2f MiB", bytes / (double) MIB);
  }
}
