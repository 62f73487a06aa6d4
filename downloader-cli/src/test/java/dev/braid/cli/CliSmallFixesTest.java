package dev.braid.cli;

import static dev.braid.cli.CliTestSupport.MIB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Issue 20 item 7: a removed entry, and input-list mistakes reported at the line that holds them. */
class CliSmallFixesTest extends ServerAndStateDb {
  @Test
  void aGetWhoseEntryAnotherShellRemovedSaysSoAndExitsWithTheRemovedCode() throws Exception {
    Content c = Content.random(8 * MIB, 7);
    // 16 s at this pace: the remover's JVM start on a loaded machine must not outlast the download
    server.serve("/slow.bin", c).etag("\"v\"").rateLimitPerConnection(MIB / 4);
    try (CliProcess get = CliProcess.start(work, "get", server.url("/slow.bin"), "-c", "2", "--state-db", db.toString())) {
      CliTestSupport.awaitAtLeast(() -> CliTestSupport.recordedBytes(db), MIB, 20_000, get);
      CliProcess.run(work, "remove", "1", "--state-db", db.toString()).assertExit(0);
      CliProcess.Result r = get.await(Duration.ofSeconds(20)).assertExit(ExitCode.REMOVED).assertNoStackTrace();
      r.assertStderrContains("removed from the queue");
      assertTrue(!r.stderr().contains("run again to resume"), r.describe());
    }
  }

  @Test
  void aBadChecksumInAListIsReportedAtItsLine() throws Exception {
    server.serve("/a", Content.random(100, 1));
    Files.writeString(work.resolve("list.txt"), server.url("/a") + "\n  out=a.bin\n  checksum=sha-256=zz\n");
    CliProcess.run(work, "get", "-i", "list.txt", "--state-db", db.toString()).assertExit(ExitCode.USAGE)
        .assertOneErrorLine("list.txt:3", "sha-256");
    assertTrue(server.requests().isEmpty());
  }

  @Test
  void anOutOfRangeConnectionCountInAListIsReportedAtItsOwnLineNotTheUrls() throws Exception {
    server.serve("/a", Content.random(100, 1));
    Files.writeString(work.resolve("list.txt"), server.url("/a") + "\n  out=a.bin\n\n  connections=100\n");
    CliProcess.run(work, "get", "-i", "list.txt", "--state-db", db.toString()).assertExit(ExitCode.USAGE)
        .assertOneErrorLine("list.txt:4", "connections");
    assertTrue(server.requests().isEmpty());
  }

  @Test
  void aMalformedMirrorOrAFolderInOutIsReportedAtItsOwnLine() throws Exception {
    server.serve("/a", Content.random(100, 1));
    Files.writeString(work.resolve("list.txt"), server.url("/a") + "\n  mirror=ftp://elsewhere/a\n");
    CliProcess.run(work, "get", "-i", "list.txt", "--state-db", db.toString()).assertExit(ExitCode.USAGE)
        .assertOneErrorLine("list.txt:2", "ftp");
    Files.writeString(work.resolve("list.txt"), server.url("/a") + "\n  priority=2\n  out=sub/a.bin\n");
    CliProcess.run(work, "get", "-i", "list.txt", "--state-db", db.toString()).assertExit(ExitCode.USAGE)
        .assertOneErrorLine("list.txt:3", "out=");
    assertTrue(server.requests().isEmpty());
  }

  @Test
  void anOutOfRangeOptionOfTheCommandLineIsAUsageErrorNamingTheOption() throws Exception {
    CliProcess.run(work, "get", server.url("/a"), "--max-connections", "100", "--state-db", db.toString())
        .assertExit(ExitCode.USAGE).assertOneErrorLine("--max-connections");
    CliProcess.run(work, "get", server.url("/a"), "--connect-timeout", "0", "--state-db", db.toString())
        .assertExit(ExitCode.USAGE).assertOneErrorLine("--connect-timeout");
    assertTrue(server.requests().isEmpty());
  }

  @Test
  void theInternalErrorMessageNamesTheDebugOptionAsItIsTyped() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    assertEquals(ExitCode.INTERNAL, GetCommand.internalError(err, new IllegalStateException("boom"), false));
    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(printed.contains("braid: internal error: java.lang.IllegalStateException: boom"), printed);
    assertTrue(printed.contains("run with --debug for details") && !printed.contains("--debug("), printed);
  }
}
