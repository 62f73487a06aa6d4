package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The npm clients of Braid's servers (aria2.js, and the official MCP client
 * {@code @modelcontextprotocol/sdk}, pinned by src/test/aria2js/package-lock.json) and the scripts
 * that drive an aria2 JSON-RPC server or {@code braid mcp} with them, installed once into target/aria2js.
 */
final class Aria2Js {
  private static final List<String> FILES = List.of("package.json", "package-lock.json", "scenario.js", "fifty.js", "mcp.mjs");

  private Aria2Js() {
  }

  /**
   * Copies the scripts and installs the package (from npm's cache when it has it); returns the
   * folder. Under a file lock: the suite's test JVMs run side by side, and one must not copy a
   * script another is running, nor two run npm in one folder.
   */
  static synchronized Path install() throws IOException, InterruptedException {
    Path dir = Path.of("target", "aria2js").toAbsolutePath();
    Files.createDirectories(dir);
    try (FileChannel lock = FileChannel.open(dir.resolveSibling("aria2js.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock held = lock.lock()) {
      for (String f : FILES) {
        Path source = Path.of("src", "test", "aria2js", f);
        Path copy = dir.resolve(f);
        if (!Files.exists(copy) || Files.mismatch(source, copy) != -1) {
          Files.copy(source, copy, StandardCopyOption.REPLACE_EXISTING);
        }
      }
      if (!installed(dir)) {
        run(dir, Duration.ofMinutes(3), "sh", "-c", "npm ci --offline --no-audit --no-fund || npm ci --no-audit --no-fund");
      }
    }
    return dir;
  }

  /** Whether every dependency package.json names is in node_modules (a folder installed before one was added is not). */
  private static boolean installed(Path dir) throws IOException {
    JsonNode dependencies = RpcDaemon.JSON.readTree(dir.resolve("package.json").toFile()).path("dependencies");
    for (java.util.Iterator<String> names = dependencies.fieldNames(); names.hasNext();) {
      if (!Files.isDirectory(dir.resolve("node_modules").resolve(names.next()))) {
        return false;
      }
    }
    return true;
  }

  /** Runs {@code node SCRIPT ARGS...} in {@code dir}; the JSON object it printed, once it exited 0. */
  static JsonNode script(Path dir, String script, Duration timeout, List<String> args) throws Exception {
    Path out = Files.createTempFile("aria2js-", ".json");
    Path err = Files.createTempFile("aria2js-", ".err");
    try {
      List<String> cmd = new ArrayList<>(List.of("node", script));
      cmd.addAll(args);
      Process node = new ProcessBuilder(cmd).directory(dir.toFile())
          .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      if (!node.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        node.destroyForcibly().waitFor();
      }
      String stderr = Files.readString(err, StandardCharsets.UTF_8);
      assertEquals(0, node.exitValue(), () -> "the node script " + script + " failed: " + stderr);
      return RpcDaemon.JSON.readTree(Files.readString(out, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  static void run(Path dir, Duration timeout, String... cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(String.join(" ", cmd) + " did not finish in " + timeout);
    }
    assertEquals(0, p.exitValue(), () -> String.join(" ", cmd) + " failed");
  }
}
