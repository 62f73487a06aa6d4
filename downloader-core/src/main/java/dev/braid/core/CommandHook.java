package dev.braid.core;

import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/** {@link DownloadHook#command}: a shell command given aria2's three arguments. */
final class CommandHook implements DownloadHook {
  private static final File NO_INPUT = new File("/dev/null");
  private final String command;

  /** A hook running {@code command} under {@code /bin/sh -c}. */
  CommandHook(String command) {
    Objects.requireNonNull(command, "command");
    if (command.isBlank()) {
      throw new IllegalArgumentException("command cannot be blank");
    }
    this.command = command;
  }

  @Override
  public void run(HookEvent event, Duration timeout) throws IOException, InterruptedException {
    // "$@" after the command: a plain path gets the arguments as aria2 gives them; its stdout goes
    // to stderr, since stdout may be a --json event stream
    ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", command + " \"$@\" 1>&2", "braid-hook", event.gid(), "1",
        event.path()).redirectError(ProcessBuilder.Redirect.INHERIT).redirectInput(ProcessBuilder.Redirect.from(NO_INPUT));
    pb.environment().put("BRAID_EVENT", event.kind().name().toLowerCase(Locale.ROOT));
    if (event.kind() == HookEvent.Kind.ERROR) {
      pb.environment().put("BRAID_ERROR", event.errorMessage());
    }
    Process p = pb.start();
    boolean ended;
    try {
      ended = p.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      killTree(p);
      throw e;
    }
    if (!ended) {
      killTree(p);
      throw new IOException("ran past " + timeout.toSeconds() + " s and was killed");
    }
    if (p.exitValue() != 0) {
      throw new IOException("exited with " + p.exitValue());
    }
  }

  /** The process and everything it started, killed: the list first, since a killed shell's children are orphaned. */
  private static void killTree(Process p) {
    List<ProcessHandle> tree = p.descendants().toList();
    p.destroyForcibly();
    tree.forEach(ProcessHandle::destroyForcibly);
    try {
      p.waitFor(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "'" + command + "'";
  }
}
