package dev.braid.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.braid.testserver.TestCertificate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code braid} command against Debian's Apache over plain HTTP/1.1, with default flags as a
 * new user runs it: every case ends with the server's bytes (SHA-256) and exit 0. Issue 20 found
 * the freshly modified file and both compression cases failing; these tests hold the engine to
 * the right behaviour, not to what it did then.
 */
class ApacheHttpTest {
  private static final long MIB = 1L << 20;
  private static final Duration RUN_TIMEOUT = Duration.ofSeconds(30);

  private static TestCertificate certificate;
  private static ApacheServer apache;

  @TempDir Path work;
  private BraidCommand braid;

  @BeforeAll
  static void startApache() throws IOException, InterruptedException {
    certificate = TestCertificate.generate();
    apache = ApacheServer.start(certificate);
  }

  @AfterAll
  static void stopApache() throws IOException, InterruptedException {
    if (apache != null) {
      apache.close();
    }
    if (certificate != null) {
      certificate.close();
    }
  }

  @BeforeEach
  void newHome() {
    braid = new BraidCommand(work.resolve("home"));
  }

  private BraidCommand.Result get(String url, Path target, String... flags) throws IOException, InterruptedException {
    return braid.start(work, args(url, target, flags)).await(RUN_TIMEOUT);
  }

  private static String[] args(String url, Path target, String... flags) {
    List<String> all = new ArrayList<>(List.of("get", url, "-o", target.toString()));
    all.addAll(List.of(flags));
    return all.toArray(String[]::new);
  }

  @Test
  void plainDownloadWithDefaultFlags() throws Exception {
    String sha = Documents.writeRandom(apache.docs().resolve("plain.bin"), 32 * MIB, 1);
    get(apache.http("plain.bin"), work.resolve("plain.bin")).assertDownloaded(work.resolve("plain.bin"), sha);
  }

  @Test
  void eightConnections() throws Exception {
    String sha = Documents.writeRandom(apache.docs().resolve("paced/c8.bin"), 32 * MIB, 2);
    get(apache.http("paced/c8.bin"), work.resolve("c8.bin"), "-c", "8").assertDownloaded(work.resolve("c8.bin"), sha);
    AccessLog log = apache.accessLog();
    long ranged206 = log.forPath("/paced/c8.bin").stream().filter(e -> e.status() == 206).count();
    assertTrue(ranged206 >= 8, () -> "-c 8 should fetch in at least 8 ranges:\n" + log.describe("/paced/c8.bin"));
  }

  @Test
  void killedMidDownloadThenResumedIsByteIdentical() throws Exception {
    Path served = apache.docs().resolve("slow/kill.bin");
    String sha = Documents.writeRandom(served, 8 * MIB, 3);
    Path target = work.resolve("kill.bin");
    killAfterOneMiB(apache.http("slow/kill.bin"), target);

    long resumedAt = System.currentTimeMillis();
    get(apache.http("slow/kill.bin"), target).assertDownloaded(target, sha);
    AccessLog log = apache.accessLog();
    long sentAgain = log.forPath("/slow/kill.bin").stream()
        .filter(e -> e.startMillis() >= resumedAt).mapToLong(AccessLog.Entry::bytesSent).sum();
    assertTrue(sentAgain < Files.size(served), () -> "the resume fetched " + sentAgain + " bytes of "
        + 8 * MIB + ": it did not reuse what the killed run had recorded\n" + log.describe("/slow/kill.bin"));
  }

  @Test
  void fileChangedBetweenRunsIsFetchedAnew() throws Exception {
    Path served = apache.docs().resolve("slow/changed.bin");
    Documents.writeRandom(served, 8 * MIB, 4);
    Path target = work.resolve("changed.bin");
    killAfterOneMiB(apache.http("slow/changed.bin"), target);

    // rewritten in place with other bytes of the same length, as a release re-published under its name
    String newSha = Documents.writeRandom(served, 8 * MIB, 5);
    Documents.settle(served, Duration.ofMinutes(10));
    get(apache.http("slow/changed.bin"), target).assertDownloaded(target, newSha);
  }

  /** Starts braid, SIGKILLs it once it has recorded a MiB, and checks the kill left a resumable state. */
  private void killAfterOneMiB(String url, Path target) throws IOException, InterruptedException {
    BraidCommand.Running run = braid.start(work, args(url, target));
    long recorded = StateDatabase.awaitRecorded(braid.stateDb(), MIB, 30_000, run);
    BraidCommand.Result killed = run.kill();
    assertTrue(recorded >= MIB, () -> "braid recorded " + recorded + " bytes before it was killed\n" + killed.describe());
    assertEquals(BraidCommand.SIGKILLED, killed.exit(), killed::describe);
    assertTrue(Files.exists(Path.of(target + ".part")), "the killed run left no .part to resume");
  }

  @Test
  void freshlyModifiedFile() throws Exception {
    FreshDownload.Outcome o = FreshDownload.run(apache, braid, work, "http", apache::http, 24 * MIB, RUN_TIMEOUT);
    o.result().assertDownloaded(o.file(), o.sha256());
    assumeTrue(o.windowHit(), () -> "no attempt reached Apache within a second of the file's change:\n" + o.requests());
  }

  @Test
  void gzipFileServedWithContentEncodingGzipIsSavedAsServed() throws Exception {
    // random bytes under a .tar.gz name: Apache labels it by name (AddEncoding gzip .gz), not by content
    String sha = Documents.writeRandom(apache.docs().resolve("data.tar.gz"), 24 * MIB, 6);
    Path target = work.resolve("data.tar.gz");
    BraidCommand.Result r = get(apache.http("data.tar.gz"), target);
    AccessLog log = apache.accessLog();
    assertTrue(log.forPath("/data.tar.gz").stream().allMatch(e -> "gzip".equals(e.contentEncoding())),
        () -> "the set-up is wrong: Apache should label every response gzip\n" + log.describe("/data.tar.gz"));
    r.assertDownloaded(target, sha);
  }

  @Test
  void textWithDeflateOnDefaultFlags() throws Exception {
    String sha = Documents.writeText(apache.docs().resolve("words.txt"), 16 * MIB, 7);
    get(apache.http("words.txt"), work.resolve("words.txt")).assertDownloaded(work.resolve("words.txt"), sha);
  }

  @Test
  void textWithDeflateOnAndUserAcceptEncodingGzipIsTheFileNotItsGzip() throws Exception {
    // what a browser's "Copy as cURL" sends; a download is of the file, whatever a copied header asks
    String sha = Documents.writeText(apache.docs().resolve("copied.txt"), 16 * MIB, 8);
    Path target = work.resolve("copied.txt");
    get(apache.http("copied.txt"), target, "-H", "Accept-Encoding: gzip, deflate, br").assertDownloaded(target, sha);
  }
}
