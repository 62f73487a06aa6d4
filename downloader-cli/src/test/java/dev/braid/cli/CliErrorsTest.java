package dev.braid.cli;

import static dev.braid.cli.CliTestSupport.sha256Hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.braid.cli.CliProcess.Result;
import dev.braid.testserver.Content;
import dev.braid.testserver.Resource;
import dev.braid.testserver.TestServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input and failures that end a {@code braid get} at once: each asserts the documented exit
 * code, one {@code braid: } line on stderr naming the cause, no stack trace, and what is left on
 * disk.
 */
class CliErrorsTest {
  private static final Content SMALL = Content.random(256 * 1024, 7);

  @TempDir Path work;
  @TempDir Path stateDir;
  private Path db;
  private TestServer server;
  private Resource file;

  @BeforeEach
  void startServer() throws IOException {
    db = stateDir.resolve("state.db");
    server = TestServer.start();
    file = server.serve("/file.bin", SMALL).etag("\"v1\"");
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  /** {@code braid get ARGS... --state-db DB} in the work folder. */
  private Result get(String... args) throws IOException, InterruptedException {
    List<String> all = new ArrayList<>();
    all.add("get");
    all.addAll(List.of(args));
    all.add("--state-db");
    all.add(db.toString());
    return CliProcess.run(work, all.toArray(String[]::new));
  }

  /** Names in the work folder (recursively, relative), to assert what a failed run left. */
  private Set<String> workFiles() throws IOException {
    try (Stream<Path> s = Files.walk(work)) {
      return s.filter(p -> !p.equals(work)).map(p -> work.relativize(p).toString()).collect(TreeSet::new, Set::add, Set::addAll);
    }
  }

  private void assertWorkEmpty(Result r) throws IOException {
    assertEquals(Set.of(), workFiles(), () -> "a failed download must leave nothing behind\n" + r.describe());
  }

  // ---- usage (exit 2)

  @Test
  void malformedUrlIsUsage() throws Exception {
    Result r = get("http://exa mple", "-o", "out.bin").assertExit(2).assertNoStackTrace()
        .assertOneErrorLine("malformed URL", "exa mple");
    assertWorkEmpty(r);
  }

  @Test
  void unsupportedSchemeIsUsage() throws Exception {
    Result r = get("ftp://x/y", "-o", "out.bin").assertExit(2).assertNoStackTrace()
        .assertOneErrorLine("unsupported scheme", "ftp");
    assertWorkEmpty(r);
  }

  @Test
  void noArgumentsShowsUsage() throws Exception {
    Result r = CliProcess.run(work).assertExit(2).assertNoStackTrace().assertStderrContains("Usage: braid", "get");
    assertEquals("", r.stdout().strip(), r.describe());
    assertWorkEmpty(r);
  }

  @Test
  void getWithoutUrlIsUsage() throws Exception {
    Result r = get().assertExit(2).assertNoStackTrace().assertStderrContains("URL");
    assertWorkEmpty(r);
  }

  /** {@code -c 0} is outside 1..64, not a hidden spelling of auto. */
  @Test
  void zeroConnectionsIsUsage() throws Exception {
    Result r = get(server.url("/file.bin"), "-c", "0", "-o", "out.bin").assertExit(2).assertNoStackTrace()
        .assertOneErrorLine("connections", "1", "64", "0");
    assertWorkEmpty(r);
    assertTrue(server.requests().isEmpty(), "a usage error must not contact the server");
  }

  /** A negative count is a usage error, whatever the CLI uses internally for auto. */
  @Test
  void negativeConnectionsIsUsage() throws Exception {
    Result r = get(server.url("/file.bin"), "-c", "-1", "-o", "out.bin").assertExit(2).assertNoStackTrace()
        .assertOneErrorLine("connections", "-1");
    assertWorkEmpty(r);
    assertTrue(server.requests().isEmpty(), "a usage error must not contact the server");
  }

  @Test
  void tooManyConnectionsIsUsage() throws Exception {
    get(server.url("/file.bin"), "-c", "65", "-o", "out.bin").assertExit(2).assertNoStackTrace()
        .assertOneErrorLine("connections", "64", "65");
    assertTrue(server.requests().isEmpty(), "a usage error must not contact the server");
  }

  @Test
  void outputAndDirTogetherIsUsage() throws Exception {
    Result r = get(server.url("/file.bin"), "-o", "out.bin", "-d", ".").assertExit(2).assertNoStackTrace()
        .assertStderrContains("mutually exclusive", "--output", "--dir");
    assertWorkEmpty(r);
    assertTrue(server.requests().isEmpty(), "a usage error must not contact the server");
  }

  /** Errors found while parsing (-o with -d, a non-numeric -c) are one {@code braid: } line too, not the usage text. */
  @Test
  void parseErrorsAreOneBraidLine() throws Exception {
    get(server.url("/file.bin"), "-o", "out.bin", "-d", ".").assertExit(2)
        .assertOneErrorLine("mutually exclusive");
    get(server.url("/file.bin"), "-c", "many").assertExit(2).assertOneErrorLine("many");
  }

  // ---- HTTP status (exit 4)

  @Test
  void notFoundIsHttpError() throws Exception {
    server.respond("/missing.bin", 404);
    Result r = get(server.url("/missing.bin"), "-o", "out.bin", "--retries", "1").assertExit(4)
        .assertNoStackTrace().assertOneErrorLine("404");
    assertWorkEmpty(r);
  }

  @Test
  void forbiddenIsHttpError() throws Exception {
    server.respond("/secret.bin", 403);
    Result r = get(server.url("/secret.bin"), "-o", "out.bin", "--retries", "1").assertExit(4)
        .assertNoStackTrace().assertOneErrorLine("403");
    assertWorkEmpty(r);
  }

  @Test
  void serverErrorIsHttpErrorAfterRetries() throws Exception {
    server.respond("/broken.bin", 500);
    Result r = get(server.url("/broken.bin"), "-o", "out.bin", "--retries", "1").assertExit(4)
        .assertNoStackTrace().assertOneErrorLine("500");
    assertWorkEmpty(r);
    long gets = server.requests().stream().filter(q -> q.path().equals("/broken.bin")).count();
    assertEquals(2, gets, "--retries 1: the first try and one retry\n" + r.describe());
  }

  @Test
  void debugAddsTheStackTrace() throws Exception {
    server.respond("/missing.bin", 404);
    Result r = get(server.url("/missing.bin"), "-o", "out.bin", "--retries", "1", "--debug").assertExit(4);
    assertTrue(r.stderr().startsWith("braid: ") && r.stderr().contains("404"), r.describe());
    assertTrue(r.stderr().contains("HttpStatusException") && r.stderr().matches("(?s).*\\n\\s+at [\\w.$]+\\(.*"),
        "--debug should print the stack trace after the error line\n" + r.describe());
  }

  // ---- network (exit 3)

  @Test
  void unresolvableHostIsNetworkError() throws Exception {
    Result r = get("http://no-such-host.invalid/x", "-o", "out.bin", "--retries", "1").assertExit(3)
        .assertNoStackTrace().assertOneErrorLine("no-such-host.invalid");
    assertWorkEmpty(r);
  }

  @Test
  void refusedConnectionIsNetworkError() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      port = s.getLocalPort();
    }
    Result r = get("http://127.0.0.1:" + port + "/x", "-o", "out.bin", "--retries", "1").assertExit(3)
        .assertNoStackTrace().assertOneErrorLine("127.0.0.1:" + port);
    assertTrue(r.stderr().toLowerCase().contains("refused") || r.stderr().toLowerCase().contains("connect"), r.describe());
    assertWorkEmpty(r);
  }

  @Test
  void silentServerIsNetworkErrorAfterRetries() throws Exception {
    // every response stalls right after its headers for longer than the read timeout
    file.stallAfter(0, Duration.ofSeconds(5), 100);
    long t0 = System.nanoTime();
    Result r = get(server.url("/file.bin"), "-o", "out.bin", "-c", "1", "--read-timeout", "0.3", "--retries", "1")
        .assertExit(3).assertNoStackTrace();
    r.assertOneErrorLine();
    assertTrue(r.stderr().toLowerCase().matches("(?s).*(time|timed|timeout).*"), "should say it timed out\n" + r.describe());
    assertTrue((System.nanoTime() - t0) / 1e9 < 15, "--read-timeout 0.3 --retries 1 must give up quickly\n" + r.describe());
    assertFalse(Files.exists(work.resolve("out.bin")), r.describe());
  }

  // ---- integrity (exit 7)

  @Test
  void serverSendingOtherRangesIsIntegrityError() throws Exception {
    file.shiftContentRange(1);
    Result r = get(server.url("/file.bin"), "-o", "out.bin", "--retries", "1").assertExit(7)
        .assertNoStackTrace();
    r.assertOneErrorLine();
    assertFalse(Files.exists(work.resolve("out.bin")), r.describe());
  }

  // ---- local file and state db (exit 6)

  @Test
  void missingFolderOfAnExactFileNameIsLocalError() throws Exception {
    // unlike -d (made if missing, below): a typo in an exact path should not grow a tree
    Result r = get(server.url("/file.bin"), "-o", "no/such/dir/out.bin").assertExit(6).assertNoStackTrace()
        .assertOneErrorLine("no/such/dir", "not exist");
    assertWorkEmpty(r);
  }

  @Test
  void readOnlyTargetFolderIsLocalError() throws Exception {
    Path ro = Files.createDirectory(work.resolve("ro"));
    Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
    boolean mounted = false;
    try {
      if (Files.isWritable(ro)) {
        // root ignores permissions: a read-only mount stops root too
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", ro.toString())
            .redirectErrorStream(true).start();
        mounted = p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS) && p.exitValue() == 0;
        assumeTrue(mounted, "neither chmod nor a read-only mount can make a folder read-only here");
      }
      Result r = get(server.url("/file.bin"), "-o", "ro/out.bin").assertExit(6).assertNoStackTrace()
          .assertOneErrorLine("ro", "writable");
      try (Stream<Path> s = Files.list(ro)) {
        assertEquals(0, s.count(), r.describe());
      }
    } finally {
      if (mounted) {
        new ProcessBuilder("umount", "-l", ro.toString()).start().waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
      }
      Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }

  @Test
  void missingDownloadFolderIsMade() throws Exception {
    Result r = get(server.url("/file.bin"), "-d", "new/sub", "--quiet").assertExit(0);
    assertEquals(SMALL.sha256Hex(), sha256Hex(work.resolve("new/sub/file.bin")), r.describe());
  }

  @Test
  void regularFileAsDownloadFolderIsLocalError() throws Exception {
    assertAFileInTheWayIsLocalError("-d", "somefile");
  }

  @Test
  void regularFileAsTargetFolderIsLocalError() throws Exception {
    assertAFileInTheWayIsLocalError("-o", "somefile/x.bin");
  }

  /** A regular file {@code somefile} where the target's folder should be: exit 6, the file untouched. */
  private void assertAFileInTheWayIsLocalError(String option, String target) throws Exception {
    Path notADir = work.resolve("somefile");
    Files.writeString(notADir, "I am a file");
    Result r = get(server.url("/file.bin"), option, target).assertExit(6).assertNoStackTrace()
        .assertOneErrorLine("not a folder");
    assertEquals("I am a file", Files.readString(notADir), r.describe());
    assertEquals(Set.of("somefile"), workFiles(), r.describe());
  }

  @Test
  void existingTargetWithoutOverwriteIsLocalErrorAndUntouched() throws Exception {
    Path out = work.resolve("out.bin");
    byte[] mine = "precious user data\n".getBytes(StandardCharsets.UTF_8);
    Files.write(out, mine);
    Result r = get(server.url("/file.bin"), "-o", "out.bin").assertExit(6).assertNoStackTrace()
        .assertOneErrorLine("out.bin", "exists", "--overwrite");
    assertArrayEquals(mine, Files.readAllBytes(out), r.describe());
    assertEquals(Set.of("out.bin"), workFiles(), r.describe());
  }

  @Test
  void existingTargetWithOverwriteIsReplaced() throws Exception {
    Path out = work.resolve("out.bin");
    Files.writeString(out, "old contents");
    Result r = get(server.url("/file.bin"), "-o", "out.bin", "--overwrite", "--quiet").assertExit(0);
    assertEquals(SMALL.sha256Hex(), sha256Hex(out), r.describe());
    assertEquals(Set.of("out.bin"), workFiles(), r.describe());
  }

  @Test
  void untrackedPartFileIsLocalErrorAndUntouched() throws Exception {
    Path part = work.resolve("out.bin.part");
    byte[] foreign = new byte[4096];
    java.util.Arrays.fill(foreign, (byte) 0x5a);
    Files.write(part, foreign);
    Result r = get(server.url("/file.bin"), "-o", "out.bin").assertExit(6).assertNoStackTrace()
        .assertOneErrorLine("out.bin.part", "--overwrite");
    assertArrayEquals(foreign, Files.readAllBytes(part), "the unknown part file must be left as it was\n" + r.describe());
    assertEquals(Set.of("out.bin.part"), workFiles(), r.describe());
  }

  @Test
  void stateDbUnderARegularFileIsLocalError() throws Exception {
    Path notADir = stateDir.resolve("not-a-folder");
    Files.writeString(notADir, "a file");
    Path badDb = notADir.resolve("state.db");
    Result r = CliProcess.run(work, "get", server.url("/file.bin"), "-o", "out.bin", "--state-db", badDb.toString())
        .assertExit(6).assertNoStackTrace().assertOneErrorLine("state database", "not-a-folder");
    assertEquals("a file", Files.readString(notADir), r.describe());
    assertWorkEmpty(r);
  }

  @Test
  void corruptedStateDbIsLocalErrorNamingIt() throws Exception {
    byte[] garbage = "this is not an SQLite database, just text\n".repeat(200).getBytes(StandardCharsets.US_ASCII);
    Files.write(db, garbage);
    // owner-only, as Braid makes its database: the note on a readable one is not this test's
    Files.setPosixFilePermissions(db, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    Result r = get(server.url("/file.bin"), "-o", "out.bin").assertExit(6).assertNoStackTrace()
        .assertOneErrorLine(db.getFileName().toString(), "state database");
    assertTrue(r.stderr().contains(db.toString()), "the message must name the database file\n" + r.describe());
    assertArrayEquals(garbage, Files.readAllBytes(db), "a corrupted state database must not be overwritten\n" + r.describe());
    assertWorkEmpty(r);
    assertEquals(List.of(), server.requests(), "nothing may be downloaded\n" + r.describe());
  }

  @Test
  void aStateDbWithGarbageOverItsPagesIsLocalErrorAndNothingIsDownloaded() throws Exception {
    // a real database of an earlier run, its header intact and every page after it overwritten:
    // SQLite opens it, so the damage shows only when braid reads its tables
    get(server.url("/file.bin"), "-o", "first.bin").assertExit(0);
    Files.delete(work.resolve("first.bin"));
    for (String side : new String[] {"-wal", "-shm"}) {
      Files.deleteIfExists(Path.of(db + side));
    }
    byte[] bytes = Files.readAllBytes(db);
    byte[] noise = new byte[bytes.length - 100];
    new java.util.Random(7).nextBytes(noise);
    System.arraycopy(noise, 0, bytes, 100, noise.length);
    Files.write(db, bytes);
    server.clearRequests();
    Result r = get(server.url("/file.bin"), "-o", "out.bin").assertExit(6).assertNoStackTrace()
        .assertOneErrorLine("state database", db.getFileName().toString());
    assertWorkEmpty(r);
    assertEquals(List.of(), server.requests(), "nothing may be downloaded\n" + r.describe());
  }

  @Test
  void aLengthLargerThanAnyDiskFailsUpFrontAsNoSpaceWritingNothing() throws Exception {
    // a lying server: 1 PiB declared (the test server computes bytes on demand and sends few)
    server.serve("/absurd.bin", Content.random(1L << 50, 5)).etag("\"huge\"");
    Result r = get(server.url("/absurd.bin"), "-o", "out.bin").assertExit(6).assertNoStackTrace()
        .assertOneErrorLine("not enough space", "out.bin");
    assertWorkEmpty(r);
    assertTrue(server.bodyBytesSent() < 16L << 20, "fetched " + server.bodyBytesSent() + " bytes for nothing\n" + r.describe());
  }
}
