package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The real {@code braid} command in a child JVM ({@link ChildJvm}: the tests' classes, archived), with stdout and
 * stderr captured to files so that a chatty child can never block on a full pipe. Every wait is
 * bounded; {@link #close()} kills a child that is still running.
 */
final class CliProcess implements AutoCloseable {
  /** Upper bound for any single run; the suite's runs take a few seconds each. */
  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  private static final Pattern STACK_FRAME = Pattern.compile("(?m)^\\s+at [\\w.$/]+\\(|^Caused by: |Exception in thread ");

  private final Process process;
  private final List<String> command;
  private final Path stdout;
  private final Path stderr;
  private final long startNanos = System.nanoTime();

  private CliProcess(Process process, List<String> command, Path stdout, Path stderr) {
    this.process = process;
    this.command = command;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  /** The java launcher of the JVM running the tests. */
  static String javaBin() {
    return ProcessHandle.current().info().command()
        .filter(c -> Files.isExecutable(Path.of(c)))
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }

  /** Starts {@code braid args...} with {@code workDir} as its working directory. */
  static CliProcess start(Path workDir, String... args) throws IOException {
    return start(workDir, List.of(), args);
  }

  /** Starts {@code braid args...} in a JVM that also gets {@code jvmOptions}. */
  static CliProcess start(Path workDir, List<String> jvmOptions, String... args) throws IOException {
    Path out = Files.createTempFile("braid-cli-", ".stdout");
    Path err = Files.createTempFile("braid-cli-", ".stderr");
    ProcessBuilder pb = ChildJvm.get().process(workDir, jvmOptions, List.of(args))
        .redirectInput(ProcessBuilder.Redirect.from(nullDevice()))
        .redirectOutput(out.toFile()).redirectError(err.toFile());
    return new CliProcess(pb.start(), List.copyOf(pb.command()), out, err);
  }

  private static java.io.File nullDevice() {
    return new java.io.File(System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("win") ? "NUL" : "/dev/null");
  }

  /** Runs {@code braid args...} to completion (bounded by {@link #DEFAULT_TIMEOUT}). */
  static Result run(Path workDir, String... args) throws IOException, InterruptedException {
    return run(workDir, List.of(), args);
  }

  /** Runs {@code braid args...} to completion in a JVM that also gets {@code jvmOptions}. */
  static Result run(Path workDir, List<String> jvmOptions, String... args) throws IOException, InterruptedException {
    try (CliProcess p = start(workDir, jvmOptions, args)) {
      return p.await(DEFAULT_TIMEOUT);
    }
  }

  /** What the child has written to stderr so far (it may still be running). */
  String stderrSoFar() throws IOException {
    return read(stderr);
  }

  long pid() {
    return process.pid();
  }

  /** The bytes the child has written to stdout so far (it may still be running). */
  byte[] stdoutSoFar() throws IOException {
    return Files.readAllBytes(stdout);
  }

  /** The child's threads as {@code jcmd PID Thread.print} prints them: what a test shows when the child stops answering. */
  String threadDump() {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    try {
      Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid()), "Thread.print").redirectErrorStream(true).start();
      byte[] out = p.getInputStream().readAllBytes();
      p.waitFor(10, TimeUnit.SECONDS);
      return new String(out, java.nio.charset.StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "no thread dump: " + e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "no thread dump: interrupted";
    }
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** Seconds since the child was started. */
  double elapsedSeconds() {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  /** Waits for the child to exit; fails the test (after killing it) if it takes longer than {@code timeout}. */
  Result await(Duration timeout) throws IOException, InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      fail("braid did not exit within " + timeout + ": " + String.join(" ", args())
          + "\nstdout: " + read(stdout) + "\nstderr: " + read(stderr));
    }
    return result();
  }

  /** SIGKILL (on Linux {@link Process#destroyForcibly} sends SIGKILL): no shutdown hook runs. */
  Result kill() throws IOException, InterruptedException {
    process.destroyForcibly();
    return await(Duration.ofSeconds(20));
  }

  /** SIGTERM: the JVM runs its shutdown hooks (braid pauses and records progress). */
  Result terminate() throws IOException, InterruptedException {
    process.destroy();
    return await(Duration.ofSeconds(30));
  }

  private Result result() throws IOException {
    return new Result(process.exitValue(), read(stdout), read(stderr), args());
  }

  private List<String> args() {
    int main = command.indexOf("dev.braid.cli.Main");
    return command.subList(main + 1, command.size());
  }

  /** The file as text; bytes that are no UTF-8 (a download written to stdout) read as U+FFFD, not as an error. */
  private static String read(Path p) throws IOException {
    return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException {
    if (process.isAlive()) {
      process.destroyForcibly();
      try {
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    Files.deleteIfExists(stdout);
    Files.deleteIfExists(stderr);
  }

  /** What a finished run left: exit code and both streams. */
  record Result(int exit, String stdout, String stderr, List<String> args) {
    /** For assertion messages: the command and everything it printed. */
    String describe() {
      return "braid " + String.join(" ", args) + "\n  exit " + exit + "\n  stdout: " + stdout.strip()
          + "\n  stderr: " + stderr.strip();
    }

    Result assertExit(int expected) {
      assertEquals(expected, exit, () -> "unexpected exit code\n" + describe());
      return this;
    }

    Result assertNoStackTrace() {
      assertFalse(STACK_FRAME.matcher(stderr).find() || STACK_FRAME.matcher(stdout).find(),
          () -> "a stack trace was printed without --debug\n" + describe());
      return this;
    }

    /**
     * The documented error format: exactly one line on stderr, starting with {@code braid: } and
     * containing every one of {@code keywords} (case-insensitive); nothing on stdout.
     */
    Result assertOneErrorLine(String... keywords) {
      List<String> lines = stderr.lines().filter(l -> !l.isBlank()).toList();
      assertEquals(1, lines.size(), () -> "expected exactly one error line on stderr\n" + describe());
      assertTrue(lines.get(0).startsWith("braid: "), () -> "the error line must start with 'braid: '\n" + describe());
      assertStderrContains(keywords);
      assertEquals("", stdout.strip(), () -> "nothing may go to stdout on an error\n" + describe());
      return this;
    }

    Result assertStderrContains(String... keywords) {
      String lower = stderr.toLowerCase(Locale.ROOT);
      for (String k : keywords) {
        assertTrue(lower.contains(k.toLowerCase(Locale.ROOT)), () -> "stderr should mention '" + k + "'\n" + describe());
      }
      return this;
    }
  }
}
