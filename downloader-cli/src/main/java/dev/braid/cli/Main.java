package dev.braid.cli;

import dev.braid.client.remote.DaemonLink;
import dev.braid.core.Braid;
import picocli.CommandLine;

/** Entry point of the {@code braid} command. */
public final class Main {
  /** The commands that hand their work to a daemon on their state database when one runs. */
  static final java.util.Set<String> CLIENTS = java.util.Set.of("get", "list", "status", "pause", "resume", "remove");

  private Main() {}

  public static void main(String[] args) {
    // every line printed from here on, remote text in it, goes through the one cleaning stream
    System.setOut(TerminalStream.over(System.out));
    System.setErr(TerminalStream.over(System.err));
    if (args.length > 0 && CLIENTS.contains(args[0])) {
      // a daemon on the state database runs the whole command line: this JVM only relays it
      java.util.OptionalInt relayed = RelayClient.run(args);
      if (relayed.isPresent()) {
        System.exit(relayed.getAsInt());
      }
    }
    System.exit(run(args));
  }

  /** Runs the command line in this process and returns its exit code (tests call this in-process). */
  static int run(String... args) {
    return run(Caller.thisProcess(), args);
  }

  /** Runs the command line for {@code caller} (this process, or a client a daemon relays) and returns its exit code. */
  static int run(Caller caller, String... args) {
    String named = args.length > 0 ? args[0] : "";
    boolean subcommand = BraidCommand.SUBCOMMANDS.contains(named);
    CommandLine cli;
    if (caller != Caller.thisProcess()) {
      // a daemon's relay: its engine and JSON are warm already
      cli = configured(withSubcommand(named, caller), caller);
      // the client's relative paths are relative to its folder, not the daemon's; a lone "-" is its standard input (-i -)
      cli.registerConverter(java.nio.file.Path.class,
          value -> value.equals("-") ? java.nio.file.Path.of(value) : caller.resolve(java.nio.file.Path.of(value)));
    } else if (subcommand) {
      if (CLIENTS.contains(named) && DaemonLink.find(DaemonLink.stateDatabaseOf(args)).isPresent()) {
        // a daemon's client: its JSON and socket classes get ready on the other core meanwhile
        dev.braid.client.remote.RemoteClient.warmUp();
      } else if (!named.equals("completion") && !named.equals("rules") && !named.equals("keys")) {
        // every subcommand but these opens the store, and its driver's set-up is the longest part
        // of a start-up: it begins at once, on the other core, while picocli builds and parses
        Braid.warmUp();
      }
      cli = configured(withSubcommand(named, caller), caller);
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
    CommandLine cli = new CommandLine(new BraidCommand().spec(), CommandModel.factory());
    for (String name : BraidCommand.SUBCOMMANDS) {
      cli.addSubcommand(name, BraidCommand.subcommand(name, Caller.thisProcess()));
    }
    return configured(cli, Caller.thisProcess());
  }

  /** The top-level command with the one subcommand {@code named}, not configured yet. */
  private static CommandLine withSubcommand(String named, Caller caller) {
    CommandLine cli = new CommandLine(new BraidCommand().spec(), CommandModel.factory());
    cli.addSubcommand(named, BraidCommand.subcommand(named, caller));
    return cli;
  }

  /**
   * Sets picocli's streams and handlers on {@code cli} and the subcommands it has now (picocli sets
   * them on those alone): so a relayed command's usage error reaches its client, not the daemon's log.
   */
  private static CommandLine configured(CommandLine cli, Caller caller) {
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    // picocli's own help and errors to the caller's raw streams: its colours are escape sequences of
    // its own, and what it prints is Braid's text and the command line's; without autoflush a
    // relayed usage would end unsent
    cli.setOut(new java.io.PrintWriter(TerminalStream.raw(caller.out()), true));
    cli.setErr(new java.io.PrintWriter(TerminalStream.raw(caller.err()), true));
    if (caller != Caller.thisProcess()) {
      // a command handed back to its client is no error: the client runs it, and prints what it prints
      cli.setExecutionExceptionHandler((e, command, parsed) -> {
        if (e instanceof Caller.RunLocally) {
          return ExitCode.OK;
        }
        throw e;
      });
    }
    // a usage error is one line naming the problem, like every other error; --help has the rest
    cli.setParameterExceptionHandler((e, arguments) -> {
      String command = e.getCommandLine().getCommandSpec().qualifiedName();
      e.getCommandLine().getErr().println("braid: " + e.getMessage() + " (see " + command + " --help)");
      return ExitCode.USAGE;
    });
    return cli;
  }
}
