package dev.braid.interop;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Makes sure Debian packages are installed before a test starts their server: runs the repository's
 * {@code testenv/require-packages.sh}, which costs one dpkg query when they are, installs them as
 * root when they are not (without starting their services), and otherwise says what to install.
 */
final class RequiredPackages {
  /** apt may need to fetch its lists first on a fresh machine. */
  private static final long INSTALL_TIMEOUT_SECONDS = 600;

  private RequiredPackages() {}

  /** Fails the calling test with the script's message if the packages are missing and cannot be installed. */
  static void require(String... packages) throws IOException, InterruptedException {
    Path script = Path.of(System.getProperty("braid.testenv", "../testenv"), "require-packages.sh");
    if (!Files.isRegularFile(script)) {
      fail("missing " + script + " (the surefire property braid.testenv names the repository's testenv folder)");
    }
    List<String> cmd = new ArrayList<>(List.of("bash", script.toString()));
    cmd.addAll(List.of(packages));
    Path log = Files.createTempFile("braid-require-packages-", ".log");
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      if (!p.waitFor(INSTALL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        fail("installing " + String.join(" ", packages) + " took over " + INSTALL_TIMEOUT_SECONDS + " s");
      }
      if (p.exitValue() != 0) {
        fail("the interop tests need " + String.join(" ", packages) + ": " + Files.readString(log, StandardCharsets.UTF_8).strip());
      }
    } finally {
      Files.deleteIfExists(log);
    }
  }
}
