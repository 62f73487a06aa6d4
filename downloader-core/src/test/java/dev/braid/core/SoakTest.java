package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.braid.testserver.Content;
import dev.braid.testserver.Resource;
import dev.braid.testserver.TestServer;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many downloads through one {@link Braid} (the queue, {@code maxActiveDownloads}) with faults
 * injected at random by the test server's knobs. Afterwards every completed file must equal what
 * the server served, every failure must be the typed error its fault calls for, and nothing may
 * leak: {@code braid-} threads, file descriptors of this process, the server's open connections,
 * and heap after GC are counted before and after.
 *
 * <p>200 downloads run in the default suite; {@code -Dsoak=2000} runs the full soak (see README).
 * The seed is printed, and {@code -Dsoak.seed=N} repeats a run.
 */
class SoakTest {
  private static final int DOWNLOADS = Integer.getInteger("soak", 200);
  private static final long SEED = Long.getLong("soak.seed", System.nanoTime());
  private static final int MAX_ACTIVE = 8;
  private static final int MAX_CONNECTIONS = 16;
  private static final long MIB = 1L << 20;

  @TempDir Path dir;
  private TestServer server;

  /** What the server does to one file; each transient one must still end in a byte-identical file. */
  enum Fault {
    NONE, DROP, TRUNCATE, STALL, BURST_503, BURST_5XX_429, CHANGED_ETAG, NOT_FOUND;

    boolean transientFault() {
      return this != NOT_FOUND;
    }
  }

  /** One planned download: its fault, and the server's resource (null for a 404). */
  record Planned(int index, Fault fault, Resource resource) {}

  @BeforeEach
  void startServer() throws Exception {
    server = TestServer.start();
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  private Braid newBraid(Path db) throws LocalFileException {
    // short timeouts: a stall costs a second, not the 30 s an interactive user gets
    return Braid.builder().stateDatabase(db).maxActiveDownloads(MAX_ACTIVE).maxConnectionsTotal(MAX_CONNECTIONS)
        .readTimeout(Duration.ofSeconds(1)).firstByteTimeout(Duration.ofSeconds(1)).connectTimeout(Duration.ofSeconds(2))
        .firstBackoff(Duration.ofMillis(20)).checkpointInterval(Duration.ofMillis(200)).build();
  }

  @Test
  void manyDownloadsWithRandomFaultsEndExactAndLeakNothing() throws Exception {
    // warm-up: classes, the SQLite native library and the JDK's own lazily opened files are
    // loaded once, so the counts below measure the soak, not the first use of the code
    runBatch("warm", 20, new Random(SEED ^ 1), false);
    Counts before = Counts.settled(server, 0);

    long start = System.nanoTime();
    Report report = runBatch("soak", DOWNLOADS, new Random(SEED), true);
    double seconds = (System.nanoTime() - start) / 1e9;
    server.clearRequests(); // the server's log of every request is the test's memory, not Braid's
    Counts after = Counts.settled(server, before.threads);

    String facts = String.format(java.util.Locale.ROOT,
        "[soak] seed %d: %d downloads in %.1f s, faults %s; completed %d, failed %s; braid- threads %d before, peak %d, %d after;"
            + " fds %d before, %d after; server connections open after %d; heap after GC %.1f MiB before,"
            + " %.1f MiB with the Braid open after all downloads, %.1f MiB after close",
        SEED, DOWNLOADS, seconds, report.faults, report.completed, report.failures, before.threads, report.peakThreads,
        after.threads, before.fds, after.fds, after.serverConnections, before.heapMib, report.heapOpenMib, after.heapMib);
    System.out.println(facts);

    assertEquals(List.of(), report.problems, facts);
    assertTrue(after.threads <= before.threads, "braid- threads left running; " + facts);
    // a thread per download driver and per connection, and the queue's loop: nothing beyond the caps
    assertTrue(report.peakThreads <= MAX_ACTIVE + MAX_CONNECTIONS + 2, "threads beyond the caps; " + facts);
    assertEquals(0, after.serverConnections, "connections left open; " + facts);
    assertTrue(after.fds <= before.fds, "file descriptors leaked; " + facts);
    // a Download handle and its record stay reachable while the Braid is open; a few KiB each
    assertTrue(report.heapOpenMib - before.heapMib < 16 + DOWNLOADS * 16.0 / 1024, "heap grew; " + facts);
    assertTrue(after.heapMib - before.heapMib < 16, "heap not released after close; " + facts);
  }

  /** What one batch did. */
  private static final class Report {
    final Map<Fault, Integer> faults = new EnumMap<>(Fault.class);
    final Map<String, Integer> failures = new TreeMap<>();
    final List<String> problems = new ArrayList<>();
    int completed;
    int peakThreads;
    double heapOpenMib;
  }

  private Report runBatch(String name, int n, Random random, boolean faults) throws Exception {
    Path folder = Files.createDirectory(dir.resolve(name));
    Report report = new Report();
    List<Planned> plan = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Fault fault = faults ? pick(random) : Fault.NONE;
      report.faults.merge(fault, 1, Integer::sum);
      plan.add(serve(name, i, fault, random));
    }
    AtomicBoolean running = new AtomicBoolean(true);
    AtomicInteger peak = new AtomicInteger();
    Thread sampler = new Thread(() -> {
      while (running.get()) {
        peak.accumulateAndGet((int) Counts.braidThreads(), Math::max);
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "soak-sampler");
    sampler.setDaemon(true);
    sampler.start();
    try (Braid braid = newBraid(dir.resolve(name + ".db"))) {
      List<Download> downloads = new ArrayList<>();
      for (Planned p : plan) {
        DownloadRequestBuilder b = DownloadRequest.builder(server.url(path(name, p.index)))
            .file(folder.resolve("f" + p.index)).minSplitSize(64 * 1024);
        downloads.add(braid.submit(b.build()));
      }
      for (int i = 0; i < n; i++) {
        check(plan.get(i), downloads.get(i), report);
      }
      running.set(false);
      sampler.join();
      report.peakThreads = peak.get();
      report.heapOpenMib = Counts.heapAfterGcMib();
    }
    return report;
  }

  private static Fault pick(Random random) {
    Fault[] faulty = Fault.values();
    // about four in ten clean; the rest spread over the faults
    return random.nextInt(10) < 4 ? Fault.NONE : faulty[1 + random.nextInt(faulty.length - 1)];
  }

  private static String path(String batch, int i) {
    return "/" + batch + "/f" + i;
  }

  private Planned serve(String batch, int i, Fault fault, Random random) {
    String path = path(batch, i);
    if (fault == Fault.NOT_FOUND) {
      server.respond(path, 404);
      return new Planned(i, fault, null);
    }
    // mostly small files, some of several MiB so that connections split them and faults land mid-segment
    long size = random.nextInt(10) < 8 ? 1 + random.nextInt(256 * 1024) : MIB + random.nextInt((int) (3 * MIB));
    if (fault == Fault.CHANGED_ETAG) {
      size = Math.max(size, MIB + random.nextInt((int) MIB));
    }
    long seed = random.nextLong();
    Resource r = server.serve(path, Content.random(size, seed)).etag("\"" + batch + i + "-v1\"");
    long at = random.nextLong(size);
    switch (fault) {
      case NONE -> { }
      case DROP -> r.dropAfter(at, 1 + random.nextInt(3));
      case TRUNCATE -> r.truncateAfter(at, 1 + random.nextInt(2));
      case STALL -> r.stallAfter(at, Duration.ofSeconds(3), 1);
      case BURST_503 -> r.failNext(503, 1 + random.nextInt(3), random.nextBoolean() ? 1 : 0);
      case BURST_5XX_429 -> r.failNext(new int[] {500, 502, 429}[random.nextInt(3)], 1 + random.nextInt(2),
          random.nextBoolean() ? null : 1);
      case CHANGED_ETAG -> {
        // the second request finds another file: the download must end as the new file, never a splice
        AtomicInteger requests = new AtomicInteger();
        Content changed = Content.random(size + random.nextInt(1000) - 500, seed + 1);
        r.onRequest(req -> {
          if (requests.incrementAndGet() == 2) {
            r.content(changed).etag("\"" + batch + i + "-v2\"");
          }
        });
      }
      case NOT_FOUND -> throw new AssertionError();
    }
    return new Planned(i, fault, r);
  }

  private static void check(Planned p, Download d, Report report) {
    String what = "download " + p.index + " (" + p.fault + ")";
    DownloadResult result;
    try {
      result = d.result().get(120, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      Throwable cause = e.getCause() instanceof CompletionException c ? c.getCause() : e.getCause();
      report.failures.merge(cause.getClass().getSimpleName(), 1, Integer::sum);
      if (!(cause instanceof DownloadException)) {
        report.problems.add(what + " failed with an untyped " + cause);
      } else if (p.fault.transientFault()) {
        report.problems.add(what + " failed though its fault was transient: " + cause);
      } else if (!(cause instanceof HttpStatusException h && h.status() == 404)) {
        report.problems.add(what + " failed with " + cause + " instead of a 404");
      }
      return;
    } catch (Exception e) {
      report.problems.add(what + " did not finish: " + e);
      return;
    }
    if (!p.fault.transientFault()) {
      report.problems.add(what + " completed");
      return;
    }
    try {
      String expected = p.resource.content().sha256Hex();
      if (!expected.equals(Content.sha256Hex(result.file()))) {
        report.problems.add(what + " completed with other bytes than the server's");
      } else if (Files.exists(Path.of(result.file() + ".part"))) {
        report.problems.add(what + " left its .part file");
      } else {
        report.completed++;
      }
    } catch (java.io.IOException e) {
      report.problems.add(what + " unreadable: " + e);
    }
  }

  /** Resources of this process and of the server, once things have had a moment to settle. */
  private record Counts(long threads, long fds, int serverConnections, double heapMib) {
    /** Waits (failing after 10 s) for braid- threads to fall to {@code threadsAtMost} and the server's connections to close. */
    static Counts settled(TestServer server, long threadsAtMost) throws Exception {
      Awaitility.await("braid- threads down to " + threadsAtMost + " and the server's connections closed")
          .atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
          .until(() -> braidThreads() <= threadsAtMost && server.openConnections() == 0);
      return new Counts(braidThreads(), openFds(), server.openConnections(), heapAfterGcMib());
    }

    static long braidThreads() {
      return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("braid-")).count();
    }

    static long openFds() {
      try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
        return fds.count();
      } catch (java.io.IOException e) {
        fail("cannot count file descriptors: " + e);
        return -1;
      }
    }

    static double heapAfterGcMib() throws InterruptedException {
      MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
      // a few rounds: one System.gc() may leave garbage that finalisation/cleaners release after it
      for (int i = 0; i < 3; i++) {
        System.gc();
        Thread.sleep(50);
      }
      return memory.getHeapMemoryUsage().getUsed() / (double) MIB;
    }
  }
}
