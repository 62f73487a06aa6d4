package dev.braid.cli;

import dev.braid.core.Version;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The top-level {@code braid} command; the work is in its subcommands. */
@Command(name = "braid", mixinStandardHelpOptions = true, versionProvider = BraidCommand.VersionProvider.class,
    description = "Parallel ranged downloads that resume correctly.",
    subcommands = {GetCommand.class, ListCommand.class, StatusCommand.class, PauseCommand.class,
        ResumeCommand.class, RemoveCommand.class, DemoCommand.class},
    footer = {"", "Exit codes: 0 ok, 1 internal error, 2 usage, 3 network, 4 HTTP error status or redirect refused,",
        "5 remote file changed (with --no-restart), 6 local file or state database, 7 integrity, 130 interrupted."})
final class BraidCommand implements Callable<Integer> {
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
