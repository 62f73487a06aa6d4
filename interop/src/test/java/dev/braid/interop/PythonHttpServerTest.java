package dev.braid.interop;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code braid} command against Python's http.server, which ignores Range and streams its one
 * 200 from the file as it is on disk: a file rewritten under a running download arrives as old
 * bytes then new, with nothing on the wire to say so. Before the end check, braid saved that
 * splice with exit 0 (docs/interop.md).
 */
class PythonHttpServerTest {
  private static final long MIB = 1L << 20;
  private static final Duration RUN_TIMEOUT = Duration.ofSeconds(60);

  private static PythonServer python;

  @TempDir Path work;

  @BeforeAll
  static void startPython() throws IOException, InterruptedException {
    python = PythonServer.start();
  }

  @AfterAll
  static void stopPython() throws IOException {
    if (python != null) {
      python.close();
    }
  }

  @Test
  void aFileRewrittenUnderARunningDownloadIsDownloadedAgain() throws Exception {
    Path served = python.docs().resolve("changing.bin");
    Documents.writeRandom(served, 32 * MIB, 21);
    Path target = work.resolve("changing.bin");
    BraidCommand braid = new BraidCommand(work.resolve("home"));
    // 4 s at 8 MiB/s: the one response is still streaming when the file is rewritten under it
    BraidCommand.Running run = braid.start(work, "get", python.http("changing.bin"), "-o", target.toString(),
        "--limit-rate", "8M");
    awaitPartBytes(Path.of(target + ".part"), 4 * MIB, run);
    String newSha = Documents.rewriteInPlace(served, 32 * MIB, 22);
    BraidCommand.Result r = run.await(RUN_TIMEOUT);
    r.assertDownloaded(target, newSha);
    assertTrue(r.stderr().contains("while the file was downloaded"), r::describe);
  }

  private static void awaitPartBytes(Path part, long bytes, BraidCommand.Running run) throws Exception {
    long deadline = System.nanoTime() + RUN_TIMEOUT.toNanos();
    while (!Files.exists(part) || Files.size(part) < bytes) {
      if (!run.isAlive() || System.nanoTime() > deadline) {
        fail("braid did not write " + bytes + " bytes to " + part + "\n" + run.await(Duration.ofSeconds(10)).describe());
      }
      Thread.sleep(10);
    }
  }
}
