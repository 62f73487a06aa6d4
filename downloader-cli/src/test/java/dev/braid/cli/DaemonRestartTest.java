package dev.braid.cli;

import static dev.braid.cli.CliTestSupport.SIGKILLED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A daemon killed with SIGKILL mid-download, started again on the same store: the same gid completes, byte-identical. */
class DaemonRestartTest {

  @TempDir Path work;

  @Test
  void killedDaemonCompletesTheSameGidAfterARestart() throws Exception {
    long size = 16L << 20;
    Content content = Content.random(size, 77);
    Path downloads = Files.createDirectories(work.resolve("downloads"));
    Path db = work.resolve("state.db");
    try (TestServer server = TestServer.start()) {
      // 4 connections at 512 KiB/s each: about 8 s in all, so the kill lands mid-way
      server.serve("/big.bin", content).etag("\"big\"").rateLimitPerConnection(512 << 10);
      String gid;
      long before;
      try (RpcDaemon first = RpcDaemon.start(work, db, downloads, "s3cret")) {
        gid = first.call("aria2.addUri", List.of(server.url("/big.bin")), Map.of("out", "big.bin", "split", "4")).asText();
        // recorded progress, not only fetched bytes: the kill must land after a checkpoint
        long recorded = CliTestSupport.awaitAtLeast(() -> CliTestSupport.recordedBytes(db), 1, 20_000, first.process);
        assertTrue(recorded > 0, "no progress was recorded before the kill");
        before = Long.parseLong(first.call("aria2.tellStatus", gid, List.of("completedLength")).get("completedLength").asText());
        assertTrue(before < size, "the download finished before the kill: make it slower");
        assertEquals(SIGKILLED, first.process.kill().exit());
      }
      try (RpcDaemon second = RpcDaemon.start(work, db, downloads, "s3cret")) {
        JsonNode done = second.awaitStatus(gid, s -> s.get("status").asText().equals("complete"), Duration.ofSeconds(40));
        assertEquals(Long.toString(size), done.get("completedLength").asText());
        assertEquals(gid, done.get("gid").asText());
        second.process.terminate().assertExit(ExitCode.OK);
      }
    }
    assertEquals(content.sha256Hex(), CliTestSupport.sha256Hex(downloads.resolve("big.bin")), "byte-identical after the restart");
  }

  @Test
  void aGetWhoseDaemonStopsSaysItsDownloadStaysAndRunningItAgainFinishesIt() throws Exception {
    Content content = Content.random(8L << 20, 78);
    Path downloads = Files.createDirectories(work.resolve("downloads"));
    Path db = work.resolve("state.db");
    Path file = downloads.resolve("held.bin");
    try (TestServer server = TestServer.start()) {
      server.serve("/held.bin", content).etag("\"held\"").rateLimitPerConnection(64 << 10);
      // where a daemon that made its secret keeps it: the get reads it there, and hands its download to the daemon
      Files.setPosixFilePermissions(Files.writeString(dev.braid.client.remote.SecretFile.fileOf(db), "s3cret\n"),
        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
      try (RpcDaemon daemon = RpcDaemon.start(work, db, downloads, "s3cret");
          CliProcess get = CliProcess.start(work, "get", "--state-db", db.toString(), "-o", file.toString(),
              server.url("/held.bin"))) {
        CliTestSupport.awaitAtLeast(() -> CliTestSupport.recordedBytes(db), 1, 20_000, get);
        daemon.process.terminate().assertExit(ExitCode.OK);
        CliProcess.Result r = get.await(Duration.ofSeconds(30)).assertExit(ExitCode.LOCAL_IO).assertNoStackTrace();
        assertTrue(r.stderr().contains("lost the braid daemon before this get's download ended"), r::describe);
        assertTrue(r.stderr().contains("it stays in its queue, its progress recorded"), r::describe);
      }
      server.serve("/held.bin", content).etag("\"held\"");
      // no daemon now: the same get continues the entry in process
      CliProcess.Result again = CliProcess.run(work, "get", "--state-db", db.toString(), "-o", file.toString(),
          server.url("/held.bin")).assertExit(ExitCode.OK);
      assertTrue(again.stderr().contains("resumed with"), again::describe);
    }
    assertEquals(content.sha256Hex(), CliTestSupport.sha256Hex(file));
  }
}
