package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.cli.CliProcess.Result;
import dev.braid.core.Progress;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** {@code braid --help} at a glance: sections, the exit codes, the completion script, the progress line's width. */
class CliHelpTest {
  @TempDir Path work;

  private static final List<String> SECTIONS = List.of("Target:", "Connections:", "Network:", "TLS:", "Output:");

  @Test
  void getListsEveryOptionOnceUnderItsSection() {
    CommandLine get = Main.fullCommandLine().getSubcommands().get("get");
    String help = get.getUsageMessage();
    int at = -1;
    for (String heading : SECTIONS) {
      int next = help.indexOf("\n" + heading + "\n");
      assertTrue(next > at, heading + " should follow the previous section\n" + help);
      at = next;
    }
    assertFalse(help.contains("\nOptions:\n"), "every option of get belongs to a section\n" + help);
    for (OptionSpec o : get.getCommandSpec().options()) {
      int first = help.indexOf(o.longestName() + (o.arity().max() > 0 ? "=" : ""));
      assertTrue(first >= 0, o.longestName() + " is listed\n" + help);
    }
    assertTrue(help.startsWith("Usage: braid get [OPTIONS] (URL... | -i LIST)\n"), help);
  }

  @Test
  void exitCodesAreCompleteAndEachOnALineOfItsOwn() throws Exception {
    List<Integer> codes = new ArrayList<>();
    for (Field f : ExitCode.class.getDeclaredFields()) {
      if (f.getType() == int.class && Modifier.isStatic(f.getModifiers())) {
        codes.add(f.getInt(null));
      }
    }
    assertTrue(codes.contains(143) && codes.contains(130), codes.toString());
    CommandLine cli = Main.fullCommandLine();
    for (String help : List.of(cli.getUsageMessage(), cli.getSubcommands().get("get").getUsageMessage())) {
      String footer = help.substring(help.indexOf("\nExit codes:\n"));
      for (int code : codes) {
        assertTrue(footer.matches("(?s).*\n  " + code + " +\\S[^\n]*\n.*"), "exit code " + code + " has its line\n" + footer);
      }
      footer.lines().forEach(l -> assertTrue(l.length() <= 80, "unbroken within 80 columns: " + l));
    }
  }

  @Test
  void progressLineIsCutToTheTerminalWidth() {
    String line = ProgressLine.format(new Progress(1L << 30, 700L << 20, 12_345_678, 16, Duration.ofSeconds(3723), List.of()));
    assertTrue(line.length() > 40, line);
    assertEquals(line.substring(0, 39), TerminalWidth.fit(line, 40));
    assertEquals(line, TerminalWidth.fit(line, line.length() + 1));
    assertEquals(132, TerminalWidth.parse("132"));
    assertEquals(0, TerminalWidth.parse("wide"));
  }

  /** The script picocli generates, sourced by bash, registers a completion for braid that offers the subcommands. */
  @Test
  void completionScriptRegistersWithBash() throws Exception {
    Result r = CliProcess.run(work, "completion", "bash").assertExit(0);
    Path script = work.resolve("braid-completion.bash");
    Files.writeString(script, r.stdout());
    String probe = "source " + script + " && complete -p braid"
        + " && COMP_WORDS=(braid ge) COMP_CWORD=1 COMP_LINE='braid ge' COMP_POINT=8 && _complete_braid"
        + " && printf '%s\\n' \"${COMPREPLY[@]}\"";
    Process bash = new ProcessBuilder("bash", "-c", probe).redirectErrorStream(true).start();
    String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(bash.waitFor(30, TimeUnit.SECONDS));
    assertEquals(0, bash.exitValue(), out);
    assertTrue(out.contains("-F _complete_braid braid"), out);
    assertTrue(out.lines().anyMatch("get"::equals), "completes 'ge' to get\n" + out);
    CliProcess.run(work, "completion", "fish").assertExit(2).assertOneErrorLine("fish");
  }
}
