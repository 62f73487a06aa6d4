package dev.braid.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The web console's own JavaScript under Node's test runner (src/test/console): the page
 * arithmetic, the URLs field, aria2's bitfield, the numbers shown, a list file's parsing, the add
 * form's options, the measurements as sentences. The browser test
 * (ConsoleBrowserTest, in the CLI) covers the rest with a real daemon.
 */
class ConsoleScriptsTest {
  @Test
  void theConsolesScriptsPassTheirNodeTests() throws Exception {
    Path log = Files.createTempFile("console-node-", ".log");
    try {
      Process node = new ProcessBuilder("node", "--test", "src/test/console/").redirectErrorStream(true)
          .redirectOutput(log.toFile()).start();
      if (!node.waitFor(60, TimeUnit.SECONDS)) {
        node.destroyForcibly().waitFor();
      }
      String out = Files.readString(log, StandardCharsets.UTF_8);
      assertEquals(0, node.exitValue(), out);
      // a run that found no test passes too: make sure the tests ran
      assertTrue(java.util.regex.Pattern.compile("(?m)^# pass [1-9]").matcher(out).find() && out.contains("# fail 0"), out);
    } finally {
      Files.deleteIfExists(log);
    }
  }
}
