package dev.braid.cli;

import static dev.braid.cli.CliTestSupport.MIB;
import static dev.braid.cli.CliTestSupport.awaitAtLeast;
import static dev.braid.cli.CliTestSupport.recordedBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.cli.CliProcess.Result;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The state database locked by another process, or deleted under a running download: a clear error, never a wrong resume. */
class CliStateDatabaseTest {
  @TempDir Path work;
  @TempDir Path stateDir;
  private TestServer server;
  private Path db;

  @BeforeEach
  void start() throws Exception {
    server = TestServer.start();
    db = stateDir.resolve("state.db");
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private String[] get(String... more) {
    List<String> all = new java.util.ArrayList<>(List.of("get", server.url("/f.bin"), "-o", "out.bin", "--state-db", db.toString()));
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }

  @Test
  void aDatabaseLockedByAnotherProcessIsALocalErrorNamingIt() throws Exception {
    server.serve("/f.bin", Content.random(1000, 1)).etag("\"v1\"");
    CliProcess.run(work, get()).assertExit(0);
    Files.delete(work.resolve("out.bin"));
    try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = other.createStatement()) {
      s.execute("PRAGMA busy_timeout = 0");
      s.execute("BEGIN EXCLUSIVE");
      // waits out SQLite's busy timeout (5 s), then gives up with the cause
      Result r = CliProcess.run(work, get("--quiet")).assertExit(6).assertNoStackTrace().assertOneErrorLine("locked");
      assertTrue(r.stderr().contains(db.toString()), r.describe());
      s.execute("ROLLBACK");
    }
    assertTrue(Files.notExists(work.resolve("out.bin")));
    assertTrue(Files.notExists(work.resolve("out.bin.part")), "nothing half-made is left");
  }

  @Test
  void aDatabaseDeletedMidDownloadNeverLeadsToASplicedResume() throws Exception {
    long size = 32 * MIB;
    Content c = Content.random(size, 2);
    server.serve("/f.bin", c).etag("\"v1\"").rateLimitPerConnection(MIB);
    try (CliProcess p = CliProcess.start(work, get("-c", "4"))) {
      awaitAtLeast(() -> recordedBytes(db), 1, 20_000, p);
      for (String suffix : new String[] {"", "-wal", "-shm"}) {
        Files.deleteIfExists(stateDir.resolve("state.db" + suffix));
      }
      p.kill();
    }
    Path part = work.resolve("out.bin.part");
    long partSize = Files.size(part);
    // the new database knows nothing of the part file: refuse rather than trust its bytes
    CliProcess.run(work, get()).assertExit(6).assertNoStackTrace().assertOneErrorLine("no record");
    assertEquals(partSize, Files.size(part), "the part file is untouched");
    server.serve("/f.bin", c).etag("\"v1\"");
    CliProcess.run(work, get("--overwrite")).assertExit(0);
    assertEquals(c.sha256Hex(), Content.sha256Hex(work.resolve("out.bin")));
  }
}
