package dev.braid.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;

/**
 * A real browser for the web console's tests: Debian's chromium (installed by
 * testenv/require-packages.sh) driven by npm's playwright-core (pinned by
 * src/test/console/package-lock.json; its own browser downloads are not used), with the scenario
 * script, installed once into target/console.
 */
final class ConsoleBrowser {
  private static final List<String> FILES = List.of("package.json", "package-lock.json", "scenario.mjs");

  private ConsoleBrowser() {
  }

  /** Installs chromium and the package (from npm's cache when it has it); returns the scripts' folder. */
  static synchronized Path install() throws IOException, InterruptedException {
    Aria2Js.run(Path.of("."), Duration.ofMinutes(5), "bash", "../testenv/require-packages.sh", "chromium");
    Path dir = Path.of("target", "console").toAbsolutePath();
    Files.createDirectories(dir);
    for (String f : FILES) {
      Files.copy(Path.of("src", "test", "console", f), dir.resolve(f), StandardCopyOption.REPLACE_EXISTING);
    }
    if (!Files.isDirectory(dir.resolve("node_modules").resolve("playwright-core"))) {
      // PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: the package must never fetch a browser build of its own
      Aria2Js.run(dir, Duration.ofMinutes(3), "sh", "-c", "export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1;"
          + " npm ci --offline --no-audit --no-fund || npm ci --no-audit --no-fund");
    }
    return dir;
  }

  /** Runs {@code node scenario.mjs ARGS...} in {@code dir}; the JSON object it printed, once it exited 0. */
  static JsonNode scenario(Path dir, Duration timeout, List<String> args) throws Exception {
    return Aria2Js.script(dir, "scenario.mjs", timeout, args);
  }
}
