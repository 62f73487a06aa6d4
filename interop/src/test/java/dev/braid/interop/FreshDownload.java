package dev.braid.interop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A download of a file modified less than a second before braid's first request reaches it: the
 * window in which Apache sends a weak ETag and answers an If-Range with a date by 200.
 *
 * <p>A JVM's start (and a TLS handshake) can take longer than that second, so the file is touched
 * once braid is already running: the command is a list of two, a small throttled warm-up file on
 * the same server and then the fresh file ({@code -j 1}, one after the other); the file is touched
 * when the warm-up's {@code .part} appears, and its probe follows within the warm-up's half second.
 * Whether the window was hit is read from the access log (the fresh file's first response had a
 * weak ETag); a run that missed it is tried again with a new file, at most {@value #ATTEMPTS} times.
 */
final class FreshDownload {
  private static final int ATTEMPTS = 3;
  private static final long WARM_UP_BYTES = 128 * 1024;

  /** One attempt's run, what it should have produced, and whether it ran inside Apache's window. */
  record Outcome(BraidCommand.Result result, Path file, String sha256, String urlPath, boolean windowHit,
      String requests) {}

  private FreshDownload() {}

  /**
   * Downloads a fresh file of {@code size} bytes from {@code url.apply(path)} with {@code flags},
   * into a folder of {@code work}; returns the first attempt that hit the window, else the last.
   */
  static Outcome run(ApacheServer apache, BraidCommand braid, Path work, String tag, UnaryOperator<String> url,
      long size, Duration timeout, String... flags) throws IOException, InterruptedException {
    Outcome outcome = null;
    for (int attempt = 1; attempt <= ATTEMPTS && (outcome == null || !outcome.windowHit()); attempt++) {
      outcome = attempt(apache, braid, work.resolve(tag + "-" + attempt), tag + "-" + attempt, url, size, timeout, flags);
    }
    return outcome;
  }

  private static Outcome attempt(ApacheServer apache, BraidCommand braid, Path dir, String name,
      UnaryOperator<String> url, long size, Duration timeout, String... flags) throws IOException, InterruptedException {
    String warmName = "warm-" + name + ".bin";
    String freshName = "fresh-" + name + ".bin";
    Documents.writeRandom(apache.docs().resolve("slow").resolve(warmName), WARM_UP_BYTES, name.hashCode());
    Path served = apache.docs().resolve(freshName);
    String sha = Documents.writeRandom(served, size, name.hashCode() + 1L);
    Path out = Files.createDirectories(dir.resolve("out"));
    Path list = dir.resolve("list.txt");
    Files.writeString(list, url.apply("slow/" + warmName) + "\n" + url.apply(freshName) + "\n", StandardCharsets.UTF_8);

    List<String> args = new ArrayList<>(List.of("get", "-i", list.toString(), "-j", "1", "-d", out.toString()));
    args.addAll(List.of(flags));
    BraidCommand.Running run = braid.start(dir, args.toArray(String[]::new));
    Path warmPart = out.resolve(warmName + ".part");
    Path warmDone = out.resolve(warmName);
    long deadline = System.nanoTime() + timeout.toNanos();
    while (run.isAlive() && !Files.exists(warmPart) && !Files.exists(warmDone) && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    Documents.touch(served);
    BraidCommand.Result result = run.await(timeout);

    AccessLog log = apache.accessLog();
    List<AccessLog.Entry> requests = log.forPath("/" + freshName).stream()
        .sorted(Comparator.comparingLong(AccessLog.Entry::startMillis)).toList();
    boolean windowHit = !requests.isEmpty() && requests.get(0).weakEtag();
    return new Outcome(result, out.resolve(freshName), sha, "/" + freshName, windowHit, log.describe("/" + freshName));
  }
}
