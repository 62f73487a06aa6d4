package dev.braid.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * {@code braid completion bash}: prints the completion script picocli's {@link AutoComplete} makes
 * from the full model, every subcommand and option included. The same script serves zsh, which runs
 * bash completions through bashcompinit (the script loads it itself).
 */
final class CompletionCommand implements Callable<Integer> {
  private static final List<String> SHELLS = List.of("bash", "zsh");

  private final PositionalParamSpec shell = PositionalParamSpec.builder().paramLabel("SHELL").arity("1").type(String.class)
      .completionCandidates(SHELLS).description("bash or zsh").build();

  CommandSpec spec() {
    CommandSpec spec = CommandModel.command("completion", this,
        "Print the shell completion script: source <(braid completion bash), in bash or zsh.");
    spec.addPositional(shell);
    return spec;
  }

  @Override
  public Integer call() {
    String name = shell.getValue();
    if (!SHELLS.contains(name)) {
      System.err.println("braid: no completion for " + name + " (bash or zsh)");
      return ExitCode.USAGE;
    }
    System.out.print(AutoComplete.bash("braid", Main.fullCommandLine()));
    System.out.flush();
    return ExitCode.OK;
  }
}
