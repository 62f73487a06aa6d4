package dev.braid.cli;

import static dev.braid.cli.CliTestSupport.MIB;
import static dev.braid.cli.CliTestSupport.awaitAtLeast;
import static dev.braid.cli.CliTestSupport.mib;
import static dev.braid.cli.CliTestSupport.recordedBytes;
import static dev.braid.cli.CliTestSupport.SIGKILLED;
import static dev.braid.cli.CliTestSupport.settledBytesSent;
import static dev.braid.cli.CliTestSupport.sha256Hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.cli.CliProcess.Result;
import dev.braid.testserver.Content;
import dev.braid.testserver.Resource;
import dev.braid.testserver.TestServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Interrupted downloads resumed by running the same command again: SIGKILL at random moments,
 * SIGTERM, an HTTP error mid-way, a remote file that changed (with and without --no-restart), and
 * a second braid on the same file. The server counts the body bytes it sends, so the tests can
 * tell how much a resume fetched again.
 *
 * <p>How much a crash may cost: braid records progress every second (after forcing the data), so
 * a SIGKILL loses what arrived since the last checkpoint, up to about one second of throughput.
 * The tests measure that loss from the state database the killed run left (bytes recorded as
 * durable), bound it by the checkpoint interval, and require the resume to fetch no more than
 * what was not recorded plus 10% of the file.
 */
class CliResumeTest {
  /** Linux reports a child ended by SIGTERM (after its shutdown hooks) as 128 + 15. */
  private static final int SIGTERMED = 143;
  /** How often braid records progress (see README) plus slack for fsync and a loaded machine. */
  private static final double CHECKPOINT_SECONDS_WITH_SLACK = 1.1;

  @TempDir Path work;
  @TempDir Path stateDir;
  private Path db;
  private TestServer server;

  @BeforeEach
  void startServer() throws IOException {
    db = stateDir.resolve("state.db");
    server = TestServer.start();
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  private String[] get(String url, String... more) {
    List<String> all = new ArrayList<>(List.of("get", url));
    all.addAll(List.of(more));
    all.add("--state-db");
    all.add(db.toString());
    return all.toArray(String[]::new);
  }

  /** Starts braid, waits until it has recorded at least {@code atLeast} bytes, then {@code extraMillis} more. */
  private CliProcess startAndAwaitProgress(String[] args, long atLeast, long extraMillis) throws Exception {
    CliProcess p = CliProcess.start(work, args);
    long recorded = awaitAtLeast(() -> recordedBytes(db), atLeast, 20_000, p);
    assertTrue(p.isAlive(), "braid ended before the test could interrupt it (recorded " + recorded + ")");
    assertTrue(recorded >= atLeast, "no progress was recorded in time: " + recorded);
    Thread.sleep(extraMillis);
    assertTrue(p.isAlive(), "braid ended before the test could interrupt it");
    return p;
  }

  // ---- SIGKILL

  /**
   * The crash test: SIGKILL mid-download, then the same command again must produce the exact file
   * and fetch again only what the killed run had not recorded.
   */
  @Test
  void killedDownloadResumesWithoutRefetching() throws Exception {
    long size = 64 * MIB;
    long perConnection = MIB; // 8 connections: 8 MiB/s, about 8 s in all
    long seed = System.nanoTime();
    Random random = new Random(seed);
    Content content = Content.random(size, 64);
    server.serve("/big.bin", content).etag("\"big-1\"").rateLimitPerConnection(perConnection);
    String[] cmd = get(server.url("/big.bin"), "-c", "8", "-o", "out.bin");
    Path out = work.resolve("out.bin");
    Path part = work.resolve("out.bin.part");

    Result killed;
    // after the first checkpoint, then somewhere inside the next checkpoint interval or two
    try (CliProcess p = startAndAwaitProgress(cmd, 1, 1000 + random.nextInt(3000))) {
      killed = p.kill();
    }
    assertEquals(SIGKILLED, killed.exit(), "destroyForcibly must be a SIGKILL\n" + killed.describe());
    long sent1 = settledBytesSent(server);
    long recorded = recordedBytes(db);
    String facts = "seed " + seed + ", size " + mib(size) + ", run 1 sent " + mib(sent1) + ", recorded " + mib(recorded);
    assertTrue(Files.exists(part) && !Files.exists(out), "a killed run leaves only its part file; " + facts);
    assertTrue(recorded > 0 && recorded < size, "the kill must land mid-download; " + facts);
    assertTrue(recorded <= sent1, "recorded more bytes than the server ever sent; " + facts);
    long unrecorded = sent1 - recorded;
    long allowance = (long) (8 * perConnection * CHECKPOINT_SECONDS_WITH_SLACK);
    assertTrue(unrecorded <= allowance, "the killed run lost " + mib(unrecorded)
        + ", more than a checkpoint interval of throughput (" + mib(allowance) + "); " + facts);

    Result resumed = CliProcess.run(work, cmd).assertExit(0).assertNoStackTrace();
    long sent2 = server.bodyBytesSent() - sent1;
    facts += ", run 2 sent " + mib(sent2) + "\n" + resumed.describe();
    assertEquals(content.sha256Hex(), sha256Hex(out), "the resumed file differs from the served one; " + facts);
    assertFalse(Files.exists(part), "the part file must be gone; " + facts);
    assertTrue(resumed.stderr().contains("saved ") && resumed.stderr().contains("resumed with"),
        "the summary should say the download was resumed; " + facts);
    long missing = size - recorded;
    assertTrue(sent2 - missing < size / 10, "the resume fetched " + mib(sent2 - missing)
        + " more than was missing after the kill (limit 10% of the file); " + facts);
    assertTrue(sent1 + sent2 < size + unrecorded + size / 10,
        "total sent " + mib(sent1 + sent2) + " for a file of " + mib(size) + "; " + facts);
    // the issue's own measure: what was fetched twice stays under 10% of the file
    assertTrue(sent1 + sent2 < size * 1.10, "fetched again " + mib(sent1 + sent2 - size) + "; " + facts);
    System.out.println("[crash] " + facts.lines().findFirst().orElse(""));
  }

  /** Kill, rerun, kill, rerun, kill, rerun at random moments, then a final run: the file is exact, little is fetched twice. */
  @Test
  void killedThreeTimesAtRandomMomentsStillExact() throws Exception {
    long size = 64 * MIB;
    long perConnection = 2 * MIB;
    long seed = System.nanoTime();
    Random random = new Random(seed);
    Content content = Content.random(size, 333);
    server.serve("/big.bin", content).etag("\"big-3\"").rateLimitPerConnection(perConnection);
    String[] cmd = get(server.url("/big.bin"), "-c", "8", "-o", "out.bin", "--quiet");
    Path out = work.resolve("out.bin");
    long allowance = (long) (8 * perConnection * CHECKPOINT_SECONDS_WITH_SLACK);

    StringBuilder facts = new StringBuilder("seed " + seed + ", size " + mib(size));
    long before = 0;
    long recordedBefore = 0;
    long totalUnrecorded = 0;
    boolean finishedEarly = false;
    for (int run = 1; run <= 3; run++) {
      // runs 1 and 3: after a checkpoint of their own, anywhere in the next 80% of the 0.5 s interval;
      // run 2: any moment from its first body byte on. Either way a run records at most a couple
      // of checkpoints (8 MiB each), so three runs cannot finish the file.
      boolean afterCheckpoint = run != 2;
      long killAtMillis = random.nextInt(afterCheckpoint ? 400 : 1000);
      Result killed;
      try (CliProcess p = CliProcess.start(work, cmd)) {
        if (afterCheckpoint) {
          long floor = recordedBefore;
          awaitAtLeast(() -> recordedBytes(db), floor + 1, 20_000, p);
        } else {
          long sentBefore = before;
          awaitAtLeast(server::bodyBytesSent, sentBefore + 1, 20_000, p);
        }
        Thread.sleep(killAtMillis);
        killed = p.kill();
      }
      if (killed.exit() == 0 && run == 3) {
        // only if a run ever recorded two checkpoints (a stalled test thread): nothing left to resume
        finishedEarly = true;
        facts.append(", run 3 finished before its kill");
        break;
      }
      assertEquals(SIGKILLED, killed.exit(), killed.describe());
      long sent = settledBytesSent(server) - before;
      before += sent;
      long recorded = Math.max(0, recordedBytes(db));
      long unrecorded = sent - (recorded - recordedBefore);
      facts.append(String.format(", run %d killed %d ms after its %s: sent %s, recorded %s", run, killAtMillis,
          afterCheckpoint ? "first checkpoint" : "first byte", mib(sent), mib(recorded)));
      assertTrue(recorded >= recordedBefore, "recorded progress went backwards; " + facts);
      assertTrue(unrecorded <= allowance, "run " + run + " sent " + mib(unrecorded) + " that it did not record"
          + " (limit: a checkpoint interval of throughput, " + mib(allowance) + "); " + facts);
      assertFalse(Files.exists(out), "a killed run must not produce the final file; " + facts);
      totalUnrecorded += unrecorded;
      recordedBefore = recorded;
    }

    Result last = finishedEarly ? null : CliProcess.run(work, cmd).assertExit(0).assertNoStackTrace();
    long sentLast = finishedEarly ? 0 : server.bodyBytesSent() - before;
    facts.append(", final run sent ").append(mib(sentLast)).append(", total ").append(mib(server.bodyBytesSent()));
    assertEquals(content.sha256Hex(), sha256Hex(out), "the file differs after three crashes; " + facts
        + (last == null ? "" : "\n" + last.describe()));
    assertFalse(Files.exists(work.resolve("out.bin.part")), facts.toString());
    assertTrue(finishedEarly || sentLast - (size - recordedBefore) < size / 10, "the final run fetched "
        + mib(sentLast - (size - recordedBefore)) + " more than was missing; " + facts);
    // 1.2 x the file, plus what the kills destroyed (each up to a checkpoint interval of throughput)
    assertTrue(server.bodyBytesSent() < size + totalUnrecorded + size / 5, "too much fetched twice; " + facts);
    System.out.println("[crash x3] " + facts);
  }

  // ---- SIGTERM

  @Test
  void terminatedDownloadRecordsProgressAndResumes() throws Exception {
    long size = 16 * MIB;
    Content content = Content.random(size, 16);
    server.serve("/mid.bin", content).etag("\"mid-1\"").rateLimitPerConnection(512 * 1024); // 4 MiB/s over 8
    String[] cmd = get(server.url("/mid.bin"), "-c", "8", "-o", "out.bin");
    Path out = work.resolve("out.bin");

    Result stopped;
    try (CliProcess p = startAndAwaitProgress(cmd, 1, 300)) {
      stopped = p.terminate();
    }
    assertTrue(stopped.exit() == SIGTERMED || stopped.exit() == 130, "SIGTERM ends braid as interrupted\n" + stopped.describe());
    stopped.assertNoStackTrace();
    long sent1 = settledBytesSent(server);
    long recorded = recordedBytes(db);
    String facts = "size " + mib(size) + ", run 1 sent " + mib(sent1) + ", recorded " + mib(recorded) + "\n" + stopped.describe();
    assertTrue(recorded > 0 && recorded < size, facts);
    assertFalse(Files.exists(out), facts);
    assertTrue(Files.exists(work.resolve("out.bin.part")), facts);
    // a clean stop records everything written: only bytes in flight at the stop may be lost
    assertTrue(sent1 - recorded < MIB, "SIGTERM should record the progress made, lost " + mib(sent1 - recorded) + "; " + facts);

    Result resumed = CliProcess.run(work, cmd).assertExit(0).assertNoStackTrace();
    long sent2 = server.bodyBytesSent() - sent1;
    facts += "\nrun 2 sent " + mib(sent2) + "\n" + resumed.describe();
    assertEquals(content.sha256Hex(), sha256Hex(out), facts);
    assertTrue(resumed.stderr().contains("resumed with"), facts);
    assertTrue(sent2 - (size - recorded) < size / 20, "the resume fetched bytes it already had; " + facts);
    System.out.println("[sigterm] " + facts.lines().findFirst().orElse("") + ", run 2 sent " + mib(sent2));
  }

  // ---- HTTP error mid-way

  @Test
  void notFoundMidwayKeepsPartAndResumes() throws Exception {
    long size = 8 * MIB;
    Content content = Content.random(size, 404);
    // every response ends after 512 KiB, so connections keep asking again and meet the 404 soon
    server.serve("/f.bin", content).etag("\"f-1\"").rateLimitPerConnection(MIB).truncateAfter(512 * 1024, 10_000);
    String[] cmd = get(server.url("/f.bin"), "-c", "4", "-o", "out.bin", "--retries", "1");
    Path out = work.resolve("out.bin");
    Path part = work.resolve("out.bin.part");

    Result failed;
    try (CliProcess p = startAndAwaitProgress(cmd, MIB, 0)) {
      server.respond("/f.bin", 404);
      failed = p.await(CliProcess.DEFAULT_TIMEOUT);
    }
    failed.assertExit(4).assertNoStackTrace().assertOneErrorLine("404");
    long sent1 = settledBytesSent(server);
    long recorded = recordedBytes(db);
    String facts = "run 1 sent " + mib(sent1) + ", recorded " + mib(recorded) + "\n" + failed.describe();
    assertFalse(Files.exists(out), facts);
    assertTrue(Files.exists(part) && Files.size(part) > 0, "the part file must be kept; " + facts);
    assertTrue(recorded >= MIB && recorded < size, "the progress made before the 404 must stay recorded; " + facts);

    server.serve("/f.bin", content).etag("\"f-1\"").rateLimitPerConnection(4 * MIB);
    Result resumed = CliProcess.run(work, cmd).assertExit(0).assertNoStackTrace();
    long sent2 = server.bodyBytesSent() - sent1;
    facts += "\nrun 2 sent " + mib(sent2) + "\n" + resumed.describe();
    assertEquals(content.sha256Hex(), sha256Hex(out), facts);
    assertFalse(Files.exists(part), facts);
    assertTrue(sent2 - (size - recorded) < size / 10, "the rerun fetched the kept bytes again; " + facts);
  }

  // ---- the remote file changed

  @Test
  void changedRemoteWithNoRestartFailsAndKeepsPart() throws Exception {
    long size = 8 * MIB;
    Content v1 = Content.random(size, 1);
    Content v2 = Content.random(size, 2);
    Resource res = server.serve("/doc.bin", v1).etag("\"doc-1\"").rateLimitPerConnection(MIB); // 4 MiB/s over 4
    Path out = work.resolve("out.bin");
    Path part = work.resolve("out.bin.part");

    try (CliProcess p = startAndAwaitProgress(get(server.url("/doc.bin"), "-c", "4", "-o", "out.bin"), 1, 0)) {
      assertEquals(SIGKILLED, p.kill().exit());
    }
    settledBytesSent(server);
    long recorded = recordedBytes(db);
    assertTrue(recorded > 0 && recorded < size, "recorded " + recorded);
    long partSize = Files.size(part);
    String partSha = sha256Hex(part);

    res.content(v2).etag("\"doc-2\"").rateLimitPerConnection(0);
    Result refused = CliProcess.run(work, get(server.url("/doc.bin"), "-c", "4", "-o", "out.bin", "--no-restart"))
        .assertExit(5).assertNoStackTrace().assertOneErrorLine("changed", "out.bin");
    assertFalse(Files.exists(out), refused.describe());
    assertEquals(partSize, Files.size(part), "--no-restart must keep the part file\n" + refused.describe());
    assertEquals(partSha, sha256Hex(part), "--no-restart must not write into the part file\n" + refused.describe());
    assertEquals(recorded, recordedBytes(db), "--no-restart must keep the recorded progress\n" + refused.describe());

    Result restarted = CliProcess.run(work, get(server.url("/doc.bin"), "-c", "4", "-o", "out.bin"))
        .assertExit(0).assertNoStackTrace();
    assertEquals(v2.sha256Hex(), sha256Hex(out), "the file must be the new version\n" + restarted.describe());
    assertFalse(Files.exists(part), restarted.describe());
    assertTrue(restarted.stderr().contains("saved ") && restarted.stderr().contains("downloaded again from the start"),
        "the summary should say why it started over\n" + restarted.describe());
  }

  // ---- two processes, one file

  @Test
  void secondProcessOnSameFileIsRefusedAndFirstCompletes() throws Exception {
    long size = 6 * MIB;
    Content content = Content.random(size, 2222);
    // 1 MiB/s over 2 connections: 6 s, so the second braid has time to start and fail meanwhile
    server.serve("/shared.bin", content).etag("\"s-1\"").rateLimitPerConnection(512 * 1024);
    String[] cmd = get(server.url("/shared.bin"), "-c", "2", "-o", "out.bin", "--quiet");
    try (CliProcess first = startAndAwaitProgress(cmd, 1, 0)) {
      Result second = CliProcess.run(work, cmd).assertExit(6).assertNoStackTrace()
          .assertOneErrorLine("out.bin.part", "another");
      assertTrue(first.isAlive(), "the first braid must be unaffected\n" + second.describe());
      Result done = first.await(CliProcess.DEFAULT_TIMEOUT).assertExit(0);
      assertEquals(content.sha256Hex(), sha256Hex(work.resolve("out.bin")), done.describe() + "\n" + second.describe());
    }
  }
}
