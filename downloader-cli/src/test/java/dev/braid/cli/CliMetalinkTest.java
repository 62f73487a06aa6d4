package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.cli.CliProcess.Result;
import dev.braid.testserver.Content;
import dev.braid.testserver.Resource;
import dev.braid.testserver.TestServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code braid get FILE.meta4} as a user runs it: a real child process, Metalinks on disk and on
 * the test server, mirrors of which one serves corrupt bytes; the exit codes are the documented ones.
 */
class CliMetalinkTest {
  static final int PIECE = 256 << 10;
  @TempDir Path work;
  @TempDir Path stateDir;
  TestServer server;

  @BeforeEach
  void start() throws IOException {
    server = TestServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Result braid(String... args) throws IOException, InterruptedException {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--state-db");
    all.add(stateDir.resolve("state.db").toString());
    return CliProcess.run(work, all.toArray(String[]::new));
  }

  private Path write(String name, String doc) throws IOException {
    return Files.writeString(work.resolve(name), doc, StandardCharsets.UTF_8);
  }

  /** One corrupt byte in every MiB: every request of the corrupt mirror carries one. */
  private static Resource corruptEveryMiB(Resource r, long size) {
    for (long at = 777; at < size; at += 1 << 20) {
      r.corruptBytes(at, at + 1);
    }
    return r;
  }

  @Test
  void twoFilesFromTwoMirrorsOneCorruptCompleteByteIdentical() throws Exception {
    Content a = Content.random(6 << 20, 61);
    Content b = Content.random(1 << 20, 62);
    server.serve("/good/a.bin", a).etag("\"a\"").rateLimitPerConnection(4 << 20);
    corruptEveryMiB(server.serve("/bad/a.bin", a).etag("\"a\"").rateLimitPerConnection(4 << 20), a.size());
    server.serve("/good/b.bin", b).etag("\"b\"");
    Path meta = write("two.meta4", MetalinkDocs.doc(
        MetalinkDocs.file("sub/a.bin", a, PIECE, List.of(server.url("/good/a.bin"), server.url("/bad/a.bin"))),
        MetalinkDocs.file("b.bin", b, PIECE, List.of(server.url("/good/b.bin")))));
    Result r = braid("get", meta.toString(), "-d", "out", "-c", "4");
    assertEquals(0, r.exit(), r::describe);
    assertEquals(a.sha256Hex(), Content.sha256Hex(work.resolve("out/sub/a.bin")));
    assertEquals(b.sha256Hex(), Content.sha256Hex(work.resolve("out/b.bin")));
    assertTrue(r.stderr().contains("2 of 2 downloads completed"), r::describe);
    // the corrupt mirror served ranges (more than its one-byte check), every one with a bad byte,
    // and yet the file is whole: those pieces came again from the good one
    long badRanges = server.requests().stream().filter(q -> q.path().equals("/bad/a.bin") && q.status() == 206
        && q.range() != null && !q.range().matches("bytes=(\\d+)-\\1")).count();
    assertTrue(badRanges > 0, "the corrupt mirror was not used: " + server.requests());
  }

  @Test
  void aMetalinkWhoseOnlyMirrorIsCorruptEndsWithExit7AndKeepsTheGoodBytes() throws Exception {
    Content a = Content.random(2 << 20, 63);
    server.serve("/a.bin", a).etag("\"a\"").corruptBytes(5 * PIECE + 3, 5 * PIECE + 4);
    Path meta = write("a.meta4", MetalinkDocs.doc(MetalinkDocs.file("a.bin", a, PIECE, List.of(server.url("/a.bin")))));
    Result r = braid("get", meta.toString());
    assertEquals(7, r.exit(), r::describe);
    assertTrue(r.stderr().contains("piece 5 ") && r.stderr().contains("failed its sha-256 hash 3 times"), r::describe);
    assertFalse(Files.exists(work.resolve("a.bin")));
    assertTrue(Files.exists(work.resolve("a.bin.part")));
    assertTrue(CliTestSupport.recordedBytes(stateDir.resolve("state.db")) >= a.size() - PIECE,
        "the good pieces are recorded");
  }

  @Test
  void malformedUnsafeAndHostileMetalinksAreRefusedWithExit11() throws Exception {
    Path secret = Files.writeString(stateDir.resolve("secret.txt"), "TOP-SECRET");
    String url = server.url("/x.bin");
    List<String[]> cases = List.of(
        new String[] {"broken.meta4", MetalinkDocs.doc("<file name=\"x\"><url>" + url + "</file>"), "malformed XML"},
        new String[] {"up.meta4", MetalinkDocs.doc("<file name=\"../evil.bin\"><url>" + url + "</url></file>"),
            "unsafe file name '../evil.bin'"},
        new String[] {"abs.meta4", MetalinkDocs.doc("<file name=\"/tmp/evil.bin\"><url>" + url + "</url></file>"),
            "unsafe file name '/tmp/evil.bin'"},
        new String[] {"xxe.meta4", "<?xml version=\"1.0\"?><!DOCTYPE m [<!ENTITY s SYSTEM \"" + secret.toUri() + "\">]>"
            + "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"&s;\"><url>" + url + "</url></file>"
            + "</metalink>", "DOCTYPE is refused"},
        new String[] {"v3.metalink", "<metalink version=\"3.0\" xmlns=\"http://www.metalinker.org/\"><files/></metalink>",
            "Metalink 3"});
    for (String[] c : cases) {
      Path meta = write(c[0], c[1]);
      Result r = braid("get", meta.toString(), "-d", "out");
      assertEquals(11, r.exit(), r::describe);
      assertTrue(r.stderr().contains(c[2]), r::describe);
      assertFalse(r.stderr().contains("TOP-SECRET"), r::describe);
      assertFalse(r.stderr().contains("\tat "), "no stack trace: " + r.describe());
    }
    assertFalse(Files.exists(work.resolve("evil.bin")));
    assertFalse(Files.exists(work.resolve("out")), "nothing was written");
    assertEquals(0, server.requests().size(), "nothing was fetched");
  }

  @Test
  void anInputListWithAMetalinkEntryAndAUrl() throws Exception {
    Content a = Content.random(1 << 20, 64);
    Content c = Content.random(300_000, 65);
    server.serve("/a.bin", a).etag("\"a\"");
    server.serve("/c.bin", c).etag("\"c\"");
    write("a.meta4", MetalinkDocs.doc(MetalinkDocs.file("a.bin", a, PIECE, List.of(server.url("/a.bin")))));
    Path list = Files.writeString(work.resolve("list.txt"), "a.meta4\n  dir=from-metalink\n" + server.url("/c.bin") + "\n");
    Result r = braid("get", "-i", list.toString());
    assertEquals(0, r.exit(), r::describe);
    assertEquals(a.sha256Hex(), Content.sha256Hex(work.resolve("from-metalink/a.bin")));
    assertEquals(c.sha256Hex(), Content.sha256Hex(work.resolve("c.bin")));
  }

  @Test
  void aMetalinkUrlIsFetchedThenItsFiles() throws Exception {
    Content a = Content.random(1 << 20, 66);
    server.serve("/a.bin", a).etag("\"a\"");
    server.serve("/files/a.meta4", Content.of(MetalinkDocs.doc(MetalinkDocs.file("a.bin", a, PIECE,
        List.of(server.url("/a.bin")))).getBytes(StandardCharsets.UTF_8)));
    Result r = braid("get", server.url("/files/a.meta4"), "-d", "dl");
    assertEquals(0, r.exit(), r::describe);
    assertEquals(a.sha256Hex(), Content.sha256Hex(work.resolve("dl/a.bin")));
    assertFalse(Files.exists(work.resolve("dl/a.meta4")), "the Metalink itself is read in memory");
  }

  @Test
  void aMetalinkUrlThatIsMissingOrNoMetalinkFailsWithItsCode() throws Exception {
    server.serve("/page.meta4", Content.of("<html><body>sign in</body></html>".getBytes(StandardCharsets.UTF_8)));
    Result missing = braid("get", server.url("/missing.meta4"));
    assertEquals(4, missing.exit(), missing::describe);
    Result html = braid("get", server.url("/page.meta4"));
    assertEquals(11, html.exit(), html::describe);
    assertTrue(html.stderr().contains("not a Metalink 4 document"), html::describe);
    try (var files = Files.list(work)) {
      assertEquals(List.of(), files.toList(), "nothing was written");
    }
  }

  @Test
  void whatAMetalinkHoldsThatBraidIgnoresIsSaid() throws Exception {
    Content a = Content.random(100_000, 70);
    server.serve("/a.bin", a).etag("\"a\"");
    Path meta = write("n.meta4", MetalinkDocs.doc("  <file name=\"a.bin\"><url>ftp://ftp.example/a.bin</url>"
        + "<metaurl mediatype=\"torrent\">http://example/a.torrent</metaurl><url>" + server.url("/a.bin") + "</url></file>\n"));
    Result r = braid("get", meta.toString(), "-d", "n");
    assertEquals(0, r.exit(), r::describe);
    assertTrue(r.stderr().contains("braid: metalink: a.bin: metaurl (torrent) ignored"), r::describe);
    assertTrue(r.stderr().contains("ftp URL ignored"), r::describe);
    assertEquals(a.sha256Hex(), Content.sha256Hex(work.resolve("n/a.bin")));
  }

  @Test
  void selectFileAndLocationAreAria2s() throws Exception {
    Content a = Content.random(300_000, 67);
    Content b = Content.random(300_000, 68);
    server.serve("/de/b.bin", b).etag("\"b\"");
    server.serve("/us/b.bin", b).etag("\"b\"");
    String doc = MetalinkDocs.doc(MetalinkDocs.file("a.bin", a, PIECE, List.of(server.url("/a.bin"))),
        "  <file name=\"b.bin\"><size>" + b.size() + "</size><url priority=\"1\" location=\"us\">" + server.url("/us/b.bin")
            + "</url><url priority=\"2\" location=\"de\">" + server.url("/de/b.bin") + "</url></file>\n");
    Path meta = write("ab.meta4", doc);
    Result r = braid("get", meta.toString(), "--select-file", "2", "--metalink-location", "de", "-c", "1");
    assertEquals(0, r.exit(), r::describe);
    assertFalse(Files.exists(work.resolve("a.bin")), "file 1 was not selected");
    assertEquals(b.sha256Hex(), Content.sha256Hex(work.resolve("b.bin")));
    assertEquals("/de/b.bin", server.requests().get(0).path(), "the preferred location is probed first");
    Result none = braid("get", meta.toString(), "--select-file", "7");
    assertEquals(2, none.exit(), none::describe);
  }

  @Test
  void aKilledMetalinkDownloadResumesByteIdentical() throws Exception {
    Content a = Content.random(8 << 20, 69);
    server.serve("/a.bin", a).etag("\"a\"").rateLimitPerConnection(1 << 20);
    Path meta = write("a.meta4", MetalinkDocs.doc(MetalinkDocs.file("a.bin", a, PIECE, List.of(server.url("/a.bin")))));
    Path db = stateDir.resolve("state.db");
    try (CliProcess p = CliProcess.start(work, "get", meta.toString(), "-c", "2", "--state-db", db.toString())) {
      long recorded = CliTestSupport.awaitAtLeast(() -> CliTestSupport.recordedBytes(db), 2 << 20, 30_000, p);
      assertTrue(recorded >= 2 << 20, "no progress recorded: " + recorded);
      p.kill();
    }
    server.serve("/a.bin", a).etag("\"a\"");
    Result r = braid("get", meta.toString(), "-c", "2");
    assertEquals(0, r.exit(), r::describe);
    assertEquals(a.sha256Hex(), Content.sha256Hex(work.resolve("a.bin")));
    assertTrue(r.stderr().contains("resumed") || r.stderr().contains("reused") || r.stderr().contains("kept"),
        r::describe);
  }
}
