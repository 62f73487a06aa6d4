package dev.braid.cli;

import static dev.braid.cli.CliTestSupport.sha256Hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.Resource;
import dev.braid.testserver.TestServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An expired link from the command line: get NEWURL -o SAMEFILE, braid refresh, --url-refresh-command. */
class CliLinkRefreshTest {
  static final int LENGTH = 16 << 20;
  @TempDir Path work;
  private TestServer server;
  private Path db;
  private Content content;
  private Resource signed;
  private Resource edge;

  @BeforeEach
  void start() throws IOException {
    server = TestServer.start();
    db = work.resolve("state.db");
    content = Content.random(LENGTH, 7);
    signed = server.serve("/f.bin", content).etag("\"main\"").rateLimitPerConnection(8 << 20).expiringTokens(6 << 20);
    // the same bytes on another edge, which computes its own ETag
    edge = server.serve("/edge.bin", content).etag("\"edge\"");
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** A download whose link expires mid-way: exit 4, the bytes so far kept. */
  private void expire() throws Exception {
    CliProcess.run(work, "get", server.url("/f.bin?token=" + signed.freshToken()), "-o", "f.bin", "-c", "4",
        "--state-db", db.toString()).assertExit(4).assertNoStackTrace().assertStderrContains("403");
    assertTrue(Files.size(work.resolve("f.bin.part")) > 0);
  }

  @Test
  void getWithANewUrlToTheSameFileContinuesItAndOneServingOtherBytesIsRefused() throws Exception {
    expire();
    server.serve("/other.bin", Content.random(LENGTH, 8)).etag("\"other\"");
    CliProcess.run(work, "get", server.url("/other.bin"), "-o", "f.bin", "--state-db", db.toString())
        .assertExit(ExitCode.LINK_REFUSED).assertNoStackTrace().assertStderrContains("Nothing was spliced", "--overwrite");
    assertTrue(Files.exists(work.resolve("f.bin.part")));
    CliProcess.run(work, "get", server.url("/edge.bin"), "-o", "f.bin", "--state-db", db.toString()).assertExit(0);
    assertEquals(content.sha256Hex(), sha256Hex(work.resolve("f.bin")));
    assertTrue(edge.bodyBytesSent() < LENGTH - (2 << 20), "the edge served " + edge.bodyBytesSent() + " bytes");
  }

  @Test
  void refreshGivesAFailedDownloadItsNewUrl() throws Exception {
    expire();
    String list = CliProcess.run(work, "list", "--state-db", db.toString()).assertExit(0).stdout();
    String id = list.lines().filter(l -> l.contains("f.bin")).findFirst().orElseThrow().strip().split("\\s+")[0]
        .replace("#", "");
    CliProcess.run(work, "refresh", id, server.url("/edge.bin"), "-q", "--state-db", db.toString()).assertExit(0);
    assertEquals(content.sha256Hex(), sha256Hex(work.resolve("f.bin")));
    assertTrue(edge.bodyBytesSent() < LENGTH - (2 << 20), "the edge served " + edge.bodyBytesSent() + " bytes");
  }

  @Test
  void aUrlRefreshCommandGivesTheNewUrlWithoutStopping() throws Exception {
    Path script = work.resolve("refresh.sh");
    Files.writeString(script, "#!/bin/sh\necho \"$1 $BRAID_HTTP_STATUS\" >> " + work.resolve("asked.log") + "\necho "
        + server.url("/edge.bin") + "\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    String old = server.url("/f.bin?token=" + signed.freshToken());
    CliProcess.run(work, "get", old, "-o", "f.bin", "-c", "4", "--url-refresh-command", script.toString(),
        "--state-db", db.toString()).assertExit(0).assertNoStackTrace();
    assertEquals(content.sha256Hex(), sha256Hex(work.resolve("f.bin")));
    assertEquals(old + " 403", Files.readString(work.resolve("asked.log")).lines().findFirst().orElseThrow());
  }

  @Test
  void aFailingUrlRefreshCommandIsReportedAndTheDownloadFailsAsItWould() throws Exception {
    CliProcess.run(work, "get", server.url("/f.bin?token=" + signed.freshToken()), "-o", "f.bin", "-c", "4",
        "--url-refresh-command", "exit 3;", "--state-db", db.toString())
        .assertExit(4).assertNoStackTrace().assertStderrContains("403", "--url-refresh-command exited with 3");
  }
}
