package dev.braid.cli;

import dev.braid.core.UrlRefresher;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code --url-refresh-command CMD}: a new URL for an expired link from a shell command. CMD runs
 * under {@code /bin/sh -c} with the expired URL as its last argument and the HTTP status in
 * {@code BRAID_HTTP_STATUS}; the first line it prints is the new URL. Its output goes to a file
 * rather than a pipe, so that waiting for it stays interruptible: the engine interrupts the asking
 * thread at its timeout, and the process is killed then. Its stderr is braid's.
 */
final class CommandRefresher implements UrlRefresher {
  private final String command;

  CommandRefresher(String command) {
    this.command = command;
  }

  @Override
  public Optional<URI> refresh(URI expired, int status) throws IOException, InterruptedException, URISyntaxException {
    Path out = Files.createTempFile("braid-refresh", ".out");
    try {
      ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", command + " \"$1\"", "braid", expired.toString())
          .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT)
          .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
      pb.environment().put("BRAID_HTTP_STATUS", Integer.toString(status));
      Process p = pb.start();
      int exit;
      try {
        exit = p.waitFor();
      } catch (InterruptedException e) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        throw e;
      }
      if (exit != 0) {
        throw new IOException("--url-refresh-command exited with " + exit);
      }
      String line = Files.readAllLines(out, StandardCharsets.UTF_8).stream().map(String::strip)
          .filter(s -> !s.isEmpty()).findFirst().orElse(null);
      return line == null ? Optional.empty() : Optional.of(new URI(line));
    } finally {
      Files.deleteIfExists(out);
    }
  }
}
