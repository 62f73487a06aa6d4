package dev.braid.cli;

import static dev.braid.cli.CliTestSupport.sha256Hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.cli.CliProcess.Result;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code braid} prints when things go well: --quiet, the summary line, --version, help, the demo. */
class CliOutputTest {
  @TempDir Path work;
  @TempDir Path stateDir;

  @Test
  void quietPrintsNothingAndPlainRunPrintsSavedLine() throws Exception {
    Content content = Content.random(1 << 20, 11);
    try (TestServer server = TestServer.start()) {
      server.serve("/data/report.bin", content).etag("\"r-1\"");
      String db = stateDir.resolve("state.db").toString();

      Result quiet = CliProcess.run(work, "get", server.url("/data/report.bin"), "-o", "quiet.bin", "--quiet", "--state-db", db)
          .assertExit(0);
      assertEquals("", quiet.stdout(), quiet.describe());
      assertEquals("", quiet.stderr(), quiet.describe());
      assertEquals(content.sha256Hex(), sha256Hex(work.resolve("quiet.bin")), quiet.describe());

      // -d: the name comes from the URL; stderr is not a terminal, so no redrawn progress line
      Result plain = CliProcess.run(work, "get", server.url("/data/report.bin"), "-d", ".", "--state-db", db).assertExit(0)
          .assertNoStackTrace();
      Path saved = work.resolve("report.bin");
      assertEquals(content.sha256Hex(), sha256Hex(saved), plain.describe());
      assertEquals("", plain.stdout(), "progress and the summary go to stderr\n" + plain.describe());
      List<String> lines = plain.stderr().lines().filter(l -> !l.isBlank()).toList();
      assertTrue(!lines.isEmpty() && lines.get(lines.size() - 1).startsWith("saved "),
          "the last line should be the 'saved ...' summary\n" + plain.describe());
      String last = lines.get(lines.size() - 1);
      assertTrue(last.contains(saved.toString()) && last.contains("1.0 MiB"), "the summary names the file and its size\n"
          + plain.describe());
      assertTrue(plain.stderr().indexOf('\r') < 0, "no carriage returns when stderr is not a terminal\n" + plain.describe());
    }
  }

  @Test
  void versionPrintsBraidAndVersion() throws Exception {
    for (String flag : List.of("--version", "-V")) {
      Result r = CliProcess.run(work, flag).assertExit(0);
      assertTrue(Pattern.compile("^braid \\S+\\R?$").matcher(r.stdout()).matches(), "expected 'braid VERSION'\n" + r.describe());
      assertEquals("", r.stderr(), r.describe());
    }
  }

  /**
   * Every command's model is built in code (CommandModel): each one must build, show its own
   * options, and answer -V like the top level.
   */
  @Test
  void everyCommandShowsItsHelpAndTheVersion() throws Exception {
    Map<String, String> ownOption = Map.ofEntries(Map.entry("get", "--input-file=LIST"), Map.entry("list", "--json"),
        Map.entry("status", "ID"), Map.entry("pause", "ID"), Map.entry("resume", "--read-timeout=SECONDS"),
        Map.entry("refresh", "NEWURL"), Map.entry("remove", "--delete-file"), Map.entry("daemon", "--rpc-secret=TOKEN"),
        Map.entry("console", "--browser=COMMAND"), Map.entry("mcp", "--dir=DIR"), Map.entry("keys", "revoke"),
        Map.entry("rules", "--no-rules"), Map.entry("demo", "--rate=SIZE"), Map.entry("completion", "SHELL"));
    assertEquals(Set.copyOf(BraidCommand.SUBCOMMANDS), ownOption.keySet());
    for (String command : BraidCommand.SUBCOMMANDS) {
      Result help = CliProcess.run(work, command, "--help").assertExit(0).assertNoStackTrace();
      assertTrue(help.stdout().startsWith("Usage: braid " + command + " "), help.describe());
      assertTrue(help.stdout().contains(ownOption.get(command)) && help.stdout().contains("-V, --version"), help.describe());
      // keys: its subcommands (add, list, revoke) take --state-db
      if (!command.equals("demo") && !command.equals("completion") && !command.equals("rules") && !command.equals("keys")) {
        assertTrue(help.stdout().contains("--state-db=FILE"), help.describe());
      }
    }
    Result version = CliProcess.run(work, "get", "-V").assertExit(0);
    assertTrue(Pattern.compile("^braid \\S+\\R?$").matcher(version.stdout()).matches(), version.describe());
    CliProcess.run(work, "status").assertExit(2).assertNoStackTrace().assertOneErrorLine("Missing required parameter", "ID");
  }

  @Test
  void demoVerifiesBothCopiesAndReportsSpeedUp() throws Exception {
    Result r = CliProcess.run(work, "demo", "--size", "2M", "--rate", "1M").assertExit(0).assertNoStackTrace();
    long verified = Pattern.compile("verified").matcher(r.stdout()).results().count();
    assertEquals(2, verified, "both copies must be verified\n" + r.describe());
    assertTrue(r.stdout().contains("Speed-up"), r.describe());
    assertTrue(!r.stdout().contains("MISMATCH"), r.describe());
  }

  /** The package-time training run of the class-data archive: the same demo over TLS. */
  @Test
  void demoOverHttpsServesTlsAndVerifiesBothCopies() throws Exception {
    Result r = CliProcess.run(work, "demo", "--size", "1M", "--rate", "64M", "--https").assertExit(0).assertNoStackTrace();
    assertTrue(r.stdout().contains(" at https://127.0.0.1:"), "expected an https URL\n" + r.describe());
    long verified = Pattern.compile("verified").matcher(r.stdout()).results().count();
    assertEquals(2, verified, "both copies must be verified\n" + r.describe());
  }
}
