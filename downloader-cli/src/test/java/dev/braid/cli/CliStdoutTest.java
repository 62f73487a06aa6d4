package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.RequestRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 38: {@code braid get URL -o -} writes the file to standard output, in order, over several
 * connections, into real pipes ({@code sha256sum}, {@code tar}, {@code head}) run by bash, and
 * leaves no file or record behind.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class CliStdoutTest extends ServerAndStateDb {
  /** What bash reports for braid's end in the pipeline, and what the pipeline's reader wrote. */
  private record Piped(int exit, byte[] out, String stderr) {}

  @Test
  void theFileGoesIntoSha256sumAndTarOverSeveralConnectionsAndAWrongChecksumIsExit7After() throws Exception {
    Content c = Content.random(24L << 20, 38);
    server.serve("/big.bin", c).etag("\"v1\"").rateLimitPerConnection(16L << 20);
    Piped sum = pipe("sha256sum", "get", server.url("/big.bin"), "-o", "-", "-c", "4", "--checksum", "sha-256=" + c.sha256Hex(),
        "--state-db", db.toString());
    assertEquals(ExitCode.OK, sum.exit(), sum.stderr());
    assertEquals(c.sha256Hex() + "  -", new String(sum.out(), StandardCharsets.UTF_8).strip());
    assertTrue(rangeConnections() >= 3, "ranges came over " + rangeConnections() + " connections: " + server.requests());

    Path tree = Files.createDirectories(work.resolve("tree"));
    byte[] inside = new byte[6 << 20];
    c.read(1 << 20, inside, 0, inside.length);
    Files.write(tree.resolve("data.bin"), inside);
    Files.writeString(tree.resolve("note.txt"), "made by the test\n");
    Path tar = work.resolve("tree.tar");
    assertEquals(0, new ProcessBuilder("tar", "cf", tar.toString(), "-C", tree.toString(), ".").inheritIO().start().waitFor());
    server.serve("/tree.tar", Content.of(Files.readAllBytes(tar))).etag("\"t1\"");
    Path out = Files.createDirectories(work.resolve("out"));
    // a wrong checksum: told after the bytes went out, which tar has extracted by then
    Piped untar = pipe("tar x -C " + out, "get", server.url("/tree.tar"), "-o", "-", "--checksum", "sha-256=" + "0".repeat(64),
        "--state-db", db.toString());
    assertEquals(ExitCode.INTEGRITY, untar.exit(), untar.stderr());
    assertTrue(untar.stderr().contains("checksum mismatch"), untar.stderr());
    assertArrayEquals(inside, Files.readAllBytes(out.resolve("data.bin")));
    assertEquals("made by the test\n", Files.readString(out.resolve("note.txt")));
    assertNothingLeft();
  }

  @Test
  void headClosingThePipeEndsItQuietlyWithItsOwnCode() throws Exception {
    Content c = Content.random(64L << 20, 39);
    // slow enough that the reader is gone long before the end
    server.serve("/big.bin", c).etag("\"v1\"").rateLimitPerConnection(2L << 20);
    Piped head = pipe("head -c 1000", "get", server.url("/big.bin"), "-o", "-", "--state-db", db.toString());
    assertEquals(ExitCode.PIPE_CLOSED, head.exit(), head.stderr());
    byte[] first = new byte[1000];
    c.read(0, first, 0, first.length);
    assertArrayEquals(first, head.out());
    assertFalse(head.stderr().contains("braid:"), "not quiet: " + head.stderr());
    assertNothingLeft();
  }

  @Test
  void ctrlCEndsTheStreamWithItsCodeAfterAnInOrderPrefixAndLeavesNothing() throws Exception {
    Content c = Content.random(64L << 20, 40);
    server.serve("/big.bin", c).etag("\"v1\"").rateLimitPerConnection(1L << 20);
    try (CliProcess get = CliProcess.start(work, "get", server.url("/big.bin"), "-o", "-", "-c", "4",
        "--state-db", db.toString())) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (get.stdoutSoFar().length < (1 << 20)) {
        assertTrue(get.isAlive() && System.nanoTime() < deadline, "no MiB on stdout: " + get.stderrSoFar());
        Thread.sleep(20);
      }
      new ProcessBuilder("kill", "-INT", Long.toString(get.pid())).start().waitFor();
      CliProcess.Result r = get.await(Duration.ofSeconds(10));
      assertEquals(ExitCode.INTERRUPTED, r.exit(), r.describe());
      r.assertNoStackTrace();
      byte[] out = get.stdoutSoFar();
      assertTrue(out.length >= (1 << 20) && out.length < c.size(), "wrote " + out.length + " bytes");
      byte[] prefix = new byte[out.length];
      c.read(0, prefix, 0, prefix.length);
      assertArrayEquals(prefix, out, "what went out before the Ctrl-C is the file's start, in order");
    }
    assertNothingLeft();
  }

  @Test
  void severalUrlsOrAListAreRefusedAndNoFileNamedDashAppears() throws Exception {
    server.serve("/a.bin", Content.random(1 << 20, 1)).etag("\"a\"");
    CliProcess.Result two = CliProcess.run(work, "get", server.url("/a.bin"), server.url("/a.bin"), "-o", "-",
        "--state-db", db.toString());
    assertEquals(ExitCode.USAGE, two.exit(), two.describe());
    assertTrue(two.stderr().contains("-o - writes one download to standard output"), two.describe());
    assertEquals("", two.stdout());
    assertTrue(server.requests().isEmpty(), "requests were sent: " + server.requests());
    assertNothingLeft();
  }

  /** No file named -, no part file, no record of a download or a queue entry a later run would resume. */
  private void assertNothingLeft() throws IOException, SQLException {
    try (Stream<Path> files = Files.walk(work)) {
      List<String> left = files.map(p -> work.relativize(p).toString())
          .filter(n -> n.equals("-") || n.endsWith(".part")).collect(Collectors.toList());
      assertEquals(List.of(), left);
    }
    if (Files.exists(db)) {
      try (Connection conn = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = conn.createStatement()) {
        for (String table : List.of("downloads", "queue", "segments")) {
          try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            assertEquals(0, rs.getLong(1), table + " holds rows");
          }
        }
      }
    }
  }

  private long rangeConnections() {
    return server.requests().stream().filter(r -> r.range() != null).map(RequestRecord::connectionId).distinct().count();
  }

  /** Runs {@code braid args | reader} in bash in the test's folder: braid's exit code, the reader's output, braid's stderr. */
  private Piped pipe(String reader, String... args) throws IOException, InterruptedException {
    ProcessBuilder braid = ChildJvm.get().process(work, List.of(), List.of(args));
    List<String> quoted = new ArrayList<>();
    for (String a : braid.command()) {
      quoted.add("'" + a.replace("'", "'\\''") + "'");
    }
    Path out = work.resolve("piped.out");
    Path err = work.resolve("piped.err");
    String script = String.join(" ", quoted) + " 2>'" + err + "' | " + reader + " >'" + out + "'; exit ${PIPESTATUS[0]}";
    ProcessBuilder bash = new ProcessBuilder("bash", "-c", script).directory(work.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).redirectErrorStream(true);
    bash.environment().putAll(braid.environment());
    Process p = bash.start();
    String shell = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the pipeline did not end");
    Piped piped = new Piped(p.exitValue(), Files.readAllBytes(out), Files.readString(err) + shell);
    Files.delete(out);
    Files.delete(err);
    return piped;
  }
}
