package dev.braid.cli;

import picocli.CommandLine;

/** Entry point of the {@code braid} command. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns its exit code (tests call this in-process). */
  static int run(String... args) {
    CommandLine cli = new CommandLine(new BraidCommand());
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    return cli.execute(args);
  }
}
