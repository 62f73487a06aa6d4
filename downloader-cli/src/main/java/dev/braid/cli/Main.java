package dev.braid.cli;

import dev.braid.core.Braid;
import picocli.CommandLine;

/** Entry point of the {@code braid} command. */
public final class Main {
  /** The commands that hand their work to a daemon on their state database when one runs. */
  private static final java.util.Set<String> CLIENTS = java.util.Set.of("get", "list", "status", "pause", "resume", "remove");

  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns its exit code (tests call this in-process). */
  static int run(String... args) {
    String named = args.length > 0 ? args[0] : "";
    boolean subcommand = BraidCommand.SUBCOMMANDS.contains(named);
    CommandLine cli;
    if (subcommand) {
      if (CLIENTS.contains(named) && DaemonLink.find(DaemonLink.stateDatabaseOf(args)).isPresent()) {
        // a daemon's client: its JSON and socket classes get ready on the other core meanwhile
        RpcClient.warmUp();
      } else if (!named.equals("completion") && !named.equals("rules")) {
        // every subcommand but this one opens the store, and its driver's set-up is the longest part
        // of a start-up: it begins at once, on the other core, while picocli builds and parses
        Braid.warmUp();
      }
      cli = configured(new CommandLine(new BraidCommand().spec(), CommandModel.factory()));
      cli.addSubcommand(named, BraidCommand.subcommand(named));
    } else {
      // top-level help, a misspelt command: the full model, so usage and suggestions list them all
      cli = fullCommandLine();
    }
    return cli.execute(args);
  }

  /**
   * The whole command line, every subcommand included: for the top-level help, the completion
   * script, and the man pages made at build time (picocli's ManPageGenerator reads this model).
   */
  public static CommandLine fullCommandLine() {
    CommandLine cli = configured(new CommandLine(new BraidCommand().spec(), CommandModel.factory()));
    for (String name : BraidCommand.SUBCOMMANDS) {
      cli.addSubcommand(name, BraidCommand.subcommand(name));
    }
    return cli;
  }

  private static CommandLine configured(CommandLine cli) {
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    // a usage error is one line naming the problem, like every other error; --help has the rest
    cli.setParameterExceptionHandler((e, arguments) -> {
      String command = e.getCommandLine().getCommandSpec().qualifiedName();
      e.getCommandLine().getErr().println("braid: " + e.getMessage() + " (see " + command + " --help)");
      return ExitCode.USAGE;
    });
    return cli;
  }
}
