package dev.braid.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The packaged {@code braid} command as a user runs it: the launcher {@code mvn package} puts in
 * downloader-cli/target (its JVM flags, its 256 MiB heap), or, where the launcher was not made
 * ({@code -Dbraid.cds.skip=true}), {@code java -jar braid.jar} with the launcher's heap flags.
 * Each instance has a home of its own (state database, caches), so tests never share host memory.
 */
final class BraidCommand {
  /** Linux reports a child killed by SIGKILL as 128 + 9. */
  static final int SIGKILLED = 137;

  private final Path home;

  BraidCommand(Path home) {
    this.home = home;
  }

  /** The state database the runs use by default ({@code $XDG_DATA_HOME/braid/state.db}). */
  Path stateDb() {
    return home.resolve("data/braid/state.db");
  }

  private static List<String> launcher() {
    Path target = Path.of(System.getProperty("braid.cli.target", "../downloader-cli/target"));
    Path script = target.resolve("braid");
    if (Files.isExecutable(script)) {
      return List.of(script.toString());
    }
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return List.of(java, "-XX:+UseSerialGC", "-Xmx256m", "-Xmn32m", "-jar", target.resolve("braid.jar").toString());
  }

  /** Starts {@code braid args...} in {@code workDir}. */
  Running start(Path workDir, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(launcher());
    cmd.addAll(List.of(args));
    Path out = Files.createTempFile("braid-interop-", ".stdout");
    Path err = Files.createTempFile("braid-interop-", ".stderr");
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
        .redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().put("XDG_DATA_HOME", home.resolve("data").toString());
    pb.environment().put("XDG_CACHE_HOME", home.resolve("cache").toString());
    // the launcher would otherwise start a class-archive training in the background whenever the
    // packaged archive does not fit this JVM: a process that outlives the test
    pb.environment().put("BRAID_NO_CDS_CACHE", "1");
    return new Running(pb.start(), List.of(args), out, err);
  }

  /** Runs {@code braid args...} in {@code workDir} to its end, or for at most {@code timeout}. */
  Result run(Duration timeout, Path workDir, String... args) throws IOException, InterruptedException {
    return start(workDir, args).await(timeout);
  }

  /** A started command; its output goes to files, so a chatty child never blocks on a pipe. */
  static final class Running {
    private final Process process;
    private final List<String> args;
    private final Path stdout;
    private final Path stderr;

    private Running(Process process, List<String> args, Path stdout, Path stderr) {
      this.process = process;
      this.args = args;
      this.stdout = stdout;
      this.stderr = stderr;
    }

    boolean isAlive() {
      return process.isAlive();
    }

    /** Waits for the exit; a command still running after {@code timeout} is killed and reported as hung. */
    Result await(Duration timeout) throws IOException, InterruptedException {
      boolean exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (!exited) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      Result r = new Result(exited ? process.exitValue() : -1, !exited, timeout,
          Files.readString(stdout, StandardCharsets.UTF_8), Files.readString(stderr, StandardCharsets.UTF_8), args);
      Files.deleteIfExists(stdout);
      Files.deleteIfExists(stderr);
      return r;
    }

    /** SIGKILL ({@link Process#destroyForcibly} on Linux): no shutdown hook runs. */
    Result kill() throws IOException, InterruptedException {
      process.destroyForcibly();
      return await(Duration.ofSeconds(20));
    }
  }

  /** What a run left: its exit code (-1 if it was killed for taking longer than allowed) and output. */
  record Result(int exit, boolean hung, Duration timeout, String stdout, String stderr, List<String> args) {
    private static final int OUTPUT_LIMIT = 4000;

    String describe() {
      return "braid " + String.join(" ", args) + "\n  " + (hung ? "hung: killed after " + timeout.toSeconds() + " s"
          : "exit " + exit) + "\n  stdout: " + tail(stdout) + "\n  stderr: " + tail(stderr);
    }

    private static String tail(String s) {
      String t = s.strip();
      return t.length() <= OUTPUT_LIMIT ? t : "..." + t.substring(t.length() - OUTPUT_LIMIT);
    }

    /** Exit 0 and {@code file} holding exactly the bytes whose SHA-256 is {@code sha256}. */
    Result assertDownloaded(Path file, String sha256) throws IOException {
      assertFalse(hung, () -> "braid hung\n" + describe());
      assertEquals(0, exit, () -> "braid failed\n" + describe());
      assertTrue(Files.isRegularFile(file), () -> "no " + file + "\n" + describe());
      assertEquals(sha256, Content.sha256Hex(file), () -> "wrong bytes in " + file + " (" + size(file)
          + " bytes)\n" + describe());
      return this;
    }

    private static long size(Path file) {
      try {
        return Files.size(file);
      } catch (IOException e) {
        return -1;
      }
    }
  }
}
