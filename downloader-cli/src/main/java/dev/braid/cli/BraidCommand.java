package dev.braid.cli;

import dev.braid.core.Version;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The top-level {@code braid} command; the work is in its subcommands, which {@link Main} adds
 * (see {@link #SUBCOMMANDS}).
 */
@Command(name = "braid", mixinStandardHelpOptions = true, versionProvider = BraidCommand.VersionProvider.class,
    description = "Parallel ranged downloads that resume correctly.",
    footer = {"", "Exit codes: 0 ok, 1 internal error, 2 usage, 3 network, 4 HTTP error status or redirect refused,",
        "5 remote file changed (with --no-restart), 6 local file or state database, 7 integrity, 130 interrupted."})
final class BraidCommand implements Callable<Integer> {
  /**
   * The subcommands, in the order help lists them. Main adds only the one named on the command
   * line when there is one: picocli builds a command's model by reflection when it is added, and
   * building all seven was about half of the CLI's start-up (measured: `braid --version` 0.33 CPU-s).
   */
  static final Map<String, Supplier<Object>> SUBCOMMANDS = new LinkedHashMap<>();

  static {
    SUBCOMMANDS.put("get", GetCommand::new);
    SUBCOMMANDS.put("list", ListCommand::new);
    SUBCOMMANDS.put("status", StatusCommand::new);
    SUBCOMMANDS.put("pause", PauseCommand::new);
    SUBCOMMANDS.put("resume", ResumeCommand::new);
    SUBCOMMANDS.put("remove", RemoveCommand::new);
    SUBCOMMANDS.put("demo", DemoCommand::new);
  }

  @Spec CommandSpec spec;

  /** Without a subcommand there is nothing to do: show how to use it. */
  @Override
  public Integer call() {
    spec.commandLine().usage(System.err);
    return ExitCode.USAGE;
  }

  static final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"braid " + Version.get()};
    }
  }
}
