package dev.braid.cli;

import static dev.braid.cli.CliTestSupport.MIB;
import static dev.braid.cli.CliTestSupport.SIGKILLED;
import static dev.braid.cli.CliTestSupport.mib;
import static dev.braid.cli.CliTestSupport.recordedBytes;
import static dev.braid.cli.CliTestSupport.serveList;
import static dev.braid.cli.CliTestSupport.settledBytesSent;
import static dev.braid.cli.CliTestSupport.sha256Hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.cli.CliProcess.Result;
import dev.braid.cli.CliTestSupport.ServedList;
import dev.braid.testserver.Content;
import dev.braid.testserver.Resource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Twenty SIGKILLs of one download, and of a batch, each followed by a last run that must finish
 * exact and fetch little twice. The two run at the same time (and beside nothing else: the other
 * classes run one test at a time), since each mostly waits for its kills' random moments; their
 * bounds are in bytes the server sent and the store recorded, which a loaded machine does not move.
 * Each test has its own server, folder and state database.
 */
class TwentyKillsTest extends ServerAndStateDb {
  /**
   * Twenty SIGKILLs at random moments from launch on (JVM start, probe, record creation, streaming,
   * checkpoints), then a final run: the file is exact, and what was fetched twice is only what the
   * kills destroyed before it was recorded.
   */
  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void killedTwentyTimesFromLaunchOnStillExact() throws Exception {
    // 8 connections at 1 MiB/s in all: twenty runs of at most 2.5 s cannot finish 128 MiB. A kill
    // loses about a checkpoint interval of throughput (measured ~0.5 MiB at 2 MiB/s), so twenty
    // unlucky kills stay far below the 0.2x of the file that the issue allows
    long size = 128 * MIB;
    long perConnection = MIB / 8;
    long seed = System.nanoTime();
    Random random = new Random(seed);
    Content content = Content.random(size, 20);
    Resource resource = server.serve("/big.bin", content).etag("\"big-20\"").rateLimitPerConnection(perConnection);
    String[] cmd = {"get", server.url("/big.bin"), "-c", "8", "-o", "out.bin", "--quiet", "--state-db", db.toString()};
    long before = 0;
    long unrecorded = 0;
    long recordedBefore = 0;
    for (int run = 1; run <= 20; run++) {
      Result killed;
      try (CliProcess p = CliProcess.start(work, cmd)) {
        Thread.sleep(100 + random.nextInt(2400));
        killed = p.kill();
      }
      assertEquals(SIGKILLED, killed.exit(), "seed " + seed + ", run " + run + "\n" + killed.describe());
      long sent = settledBytesSent(server) - before;
      before += sent;
      long recorded = Math.max(0, recordedBytes(db));
      assertTrue(recorded >= recordedBefore, "recorded progress went backwards; seed " + seed);
      unrecorded += sent - (recorded - recordedBefore);
      recordedBefore = recorded;
    }
    // the last run only has to finish: unthrottled, it takes a second instead of a minute
    resource.rateLimitPerConnection(0);
    Result last = CliProcess.run(work, cmd).assertExit(0).assertNoStackTrace();
    String facts = "seed " + seed + ", recorded before the last run " + mib(recordedBefore) + ", lost to kills "
        + mib(unrecorded) + ", total sent " + mib(server.bodyBytesSent()) + "\n" + last.describe();
    assertEquals(content.sha256Hex(), sha256Hex(work.resolve("out.bin")), facts);
    assertFalse(Files.exists(work.resolve("out.bin.part")), facts);
    double ratio = (double) server.bodyBytesSent() / size;
    System.out.println("[crash x20] " + facts.lines().findFirst().orElse("") + String.format(", %.2fx the file", ratio));
    assertTrue(server.bodyBytesSent() < size + unrecorded + size / 10, "fetched twice beyond what the kills lost; " + facts);
    assertTrue(ratio < 1.2, String.format("fetched %.2fx the file over twenty kills; ", ratio) + facts);
  }

  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void aBatchKilledTwentyTimesFinishesWithUnderOnePointTwoTimesItsBytes() throws Exception {
    int files = 16;
    long size = 12 * MIB;
    // slow while it is being killed, so each kill costs a small share of the batch (as in the
    // single-file twenty-kill test); the last run is not throttled
    ServedList served = serveList(server, work, "b", files, size, MIB);
    List<Content> contents = served.contents();
    List<Resource> resources = served.resources();
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int kill = 0; kill < 20; kill++) {
      try (CliProcess p = CliProcess.start(work, "get", "-i", "list.txt", "-j", "2", "-c", "1", "--state-db", db.toString())) {
        Thread.sleep(1000 + random.nextInt(1500));
        p.kill();
      }
    }
    resources.forEach(r -> r.rateLimitPerConnection(0));
    long sentBefore = server.bodyBytesSent();
    long recordedBefore = CliTestSupport.recordedBytes(db);
    CliProcess.Result last = CliProcess.run(work, "get", "-i", "list.txt", "-j", "4", "--state-db", db.toString());
    last.assertExit(0);
    last.assertStderrContains("16 of 16 downloads completed");
    for (int i = 0; i < files; i++) {
      assertEquals(contents.get(i).sha256Hex(), sha256Hex(work.resolve("b" + i)), "b" + i);
    }
    long total = files * size;
    double ratio = (double) server.bodyBytesSent() / total;
    String facts = String.format("seed %d, sent before the last run %s, recorded %s, last run %s, %.3fx the batch",
        seed, CliTestSupport.mib(sentBefore), CliTestSupport.mib(recordedBefore),
        CliTestSupport.mib(server.bodyBytesSent() - sentBefore), ratio);
    System.out.println("[batch crash x20] " + facts);
    assertTrue(ratio < 1.2, facts);
  }
}
