package dev.braid.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The top-level {@code braid} command; the work is in its subcommands, which {@link Main} adds
 * (see {@link #SUBCOMMANDS}).
 */
final class BraidCommand implements Callable<Integer> {
  /**
   * The subcommands, in the order help lists them. Main adds only the one named on the command
   * line when there is one: each model costs start-up time to build.
   */
  static final List<String> SUBCOMMANDS = List.of("get", "list", "status", "pause", "resume", "refresh", "remove", "daemon",
      "console", "mcp", "keys", "rules", "demo", "completion");

  private final CommandSpec spec = CommandModel.command("braid", this, "Parallel ranged downloads that resume correctly.");

  BraidCommand() {
    ExitCode.describeIn(spec.usageMessage());
  }

  CommandSpec spec() {
    return spec;
  }

  /**
   * The model of the subcommand {@code name}, one of {@link #SUBCOMMANDS}; the queue commands run for
   * {@code caller} ({@link Main#CLIENTS}), the others always for this process.
   */
  static CommandSpec subcommand(String name, Caller caller) {
    return switch (name) {
      case "get" -> new GetCommand(caller).spec();
      case "list" -> new ListCommand(caller).spec();
      case "status" -> new StatusCommand(caller).spec();
      case "pause" -> new PauseCommand(caller).spec();
      case "resume" -> new ResumeCommand(caller).spec();
      case "refresh" -> new RefreshCommand(caller).spec();
      case "remove" -> new RemoveCommand(caller).spec();
      case "daemon" -> new DaemonCommand().spec();
      case "console" -> new ConsoleCommand().spec();
      case "mcp" -> new McpCommand().spec();
      case "keys" -> new KeysCommand().spec();
      case "rules" -> new RulesCommand().spec();
      case "demo" -> new DemoCommand().spec();
      case "completion" -> new CompletionCommand().spec();
      default -> throw new IllegalArgumentException("no subcommand " + name);
    };
  }

  /** Without a subcommand there is nothing to do: show how to use it. */
  @Override
  public Integer call() {
    spec.commandLine().usage(TerminalStream.raw(System.err));
    return ExitCode.USAGE;
  }
}
