package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.cli.CliProcess.Result;
import dev.braid.testserver.Content;
import dev.braid.testserver.Resource;
import dev.braid.testserver.TestServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The same Metalinks given to aria2c and to braid, so a difference in behaviour shows. */
class MetalinkAria2Test {
  static final int PIECE = 256 << 10;
  private static TestServer server;
  @TempDir Path work;

  @BeforeAll
  static void installAria2() throws Exception {
    Process p = new ProcessBuilder("bash", "../testenv/require-packages.sh", "aria2").redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    assertTrue(p.waitFor(5, TimeUnit.MINUTES) && p.exitValue() == 0, "aria2 could not be installed");
    server = TestServer.start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** aria2c's exit code and output for a Metalink, run in {@code dir}. */
  private static String[] aria2c(Path dir, Path meta, String... more) throws IOException, InterruptedException {
    List<String> cmd = new java.util.ArrayList<>(List.of("aria2c", "--no-conf", "--console-log-level=warn",
        "--summary-interval=0", "--max-tries=3", "--retry-wait=0", "--dir=" + dir, "--follow-metalink=true"));
    cmd.addAll(List.of(more));
    cmd.add("--metalink-file=" + meta);
    Path log = dir.resolveSibling(dir.getFileName() + ".log");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      return new String[] {"timeout", Files.readString(log)};
    }
    return new String[] {Integer.toString(p.exitValue()), Files.readString(log)};
  }

  private Result braid(Path dir, Path meta, String... more) throws IOException, InterruptedException {
    List<String> cmd = new java.util.ArrayList<>(List.of("get", meta.toString(), "-d", dir.toString(), "--state-db",
        work.resolve("state.db").toString()));
    cmd.addAll(List.of(more));
    return CliProcess.run(work, cmd.toArray(String[]::new));
  }

  private static long rangesServed(String path) {
    return server.requests().stream().filter(q -> q.path().equals(path) && q.status() == 206).count();
  }

  @Test
  void aCorruptMirrorBesideAGoodOne() throws Exception {
    Content a = Content.random(4 << 20, 81);
    server.serve("/cmp/a.bin", a).etag("\"a\"").rateLimitPerConnection(4 << 20);
    Resource bad = server.serve("/cmp/bad.bin", a).etag("\"a\"").rateLimitPerConnection(4 << 20);
    for (long at = 500; at < a.size(); at += 128 << 10) {
      bad.corruptBytes(at, at + 1);
    }
    Path meta = Files.writeString(work.resolve("a.meta4"), MetalinkDocs.doc(MetalinkDocs.file("a.bin", a, PIECE,
        List.of(server.url("/cmp/a.bin"), server.url("/cmp/bad.bin")))));
    String[] aria = aria2c(Files.createDirectories(work.resolve("aria")), meta, "-x4", "-s4", "-k1M");
    long ariaBad = rangesServed("/cmp/bad.bin");
    server.clearRequests();
    Result r = braid(work.resolve("braid"), meta, "-c", "4");
    long braidBad = rangesServed("/cmp/bad.bin");
    String both = "aria2c exit " + aria[0] + ", bad-mirror ranges " + ariaBad + "\n" + aria[1] + "\nbraid: " + r.describe()
        + " bad-mirror ranges " + braidBad;
    assertEquals(0, r.exit(), both);
    assertEquals(a.sha256Hex(), Content.sha256Hex(work.resolve("braid/a.bin")), both);
    assertTrue(braidBad > 0, "braid used the corrupt mirror: " + both);
    // aria2c too ends with the right bytes (it re-fetches a piece whose hash fails)
    assertEquals("0", aria[0], both);
    assertEquals(a.sha256Hex(), Content.sha256Hex(work.resolve("aria/a.bin")), both);
    System.out.println("[metalink vs aria2c] corrupt mirror beside a good one: " + both.replace('\n', ' '));
  }

  @Test
  void aCorruptOnlyMirror() throws Exception {
    Content a = Content.random(1 << 20, 82);
    server.serve("/cmp/only.bin", a).etag("\"o\"").corruptBytes(PIECE + 7, PIECE + 8);
    Path meta = Files.writeString(work.resolve("o.meta4"), MetalinkDocs.doc(MetalinkDocs.file("only.bin", a, PIECE,
        List.of(server.url("/cmp/only.bin")))));
    String[] aria = aria2c(Files.createDirectories(work.resolve("aria")), meta);
    Result r = braid(work.resolve("braid"), meta);
    String both = "aria2c exit " + aria[0] + "\n" + aria[1] + "\nbraid: " + r.describe();
    assertEquals(7, r.exit(), both);
    assertTrue(Files.exists(work.resolve("braid/only.bin.part")), both);
    // the difference: aria2c (1.36) gives the URL up at the first bad piece ("Invalid checksum",
    // exit 1); braid fetches the piece again and fails with its integrity code after 3 tries
    assertEquals("1", aria[0], both);
    assertTrue(aria[1].contains("Invalid checksum"), both);
    System.out.println("[metalink vs aria2c] corrupt only mirror: " + both.replace('\n', ' '));
  }

  @Test
  void aFileNameThatClimbsOutOfTheFolder() throws Exception {
    Content a = Content.random(100_000, 83);
    server.serve("/cmp/t.bin", a).etag("\"t\"");
    Path meta = Files.writeString(work.resolve("t.meta4"), MetalinkDocs.doc(
        MetalinkDocs.file("../escaped.bin", a, PIECE, List.of(server.url("/cmp/t.bin"))),
        MetalinkDocs.file("fine.bin", a, PIECE, List.of(server.url("/cmp/t.bin")))));
    Path ariaDir = Files.createDirectories(work.resolve("nest/aria"));
    String[] aria = aria2c(ariaDir, meta);
    Result r = braid(Files.createDirectories(work.resolve("nest/braid")), meta);
    String both = "aria2c exit " + aria[0] + ", fine.bin " + Files.exists(ariaDir.resolve("fine.bin")) + "\n" + aria[1]
        + "\nbraid: " + r.describe();
    assertEquals(11, r.exit(), both);
    // the same rule in both: the whole document is refused (aria2c: exit 20, "Bad file@name")
    assertEquals("20", aria[0], both);
    assertTrue(!Files.exists(ariaDir.resolve("fine.bin")), both);
    assertTrue(!Files.exists(work.resolve("nest/escaped.bin")), "neither wrote outside its folder: " + both);
    assertTrue(!Files.exists(work.resolve("nest/braid/fine.bin")), "braid refuses the whole document: " + both);
    System.out.println("[metalink vs aria2c] traversal: " + both.replace('\n', ' '));
  }
}
