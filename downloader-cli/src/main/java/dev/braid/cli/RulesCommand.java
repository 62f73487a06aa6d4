package dev.braid.cli;

import static dev.braid.cli.CommandModel.strings;

import dev.braid.core.InvalidRequestException;
import dev.braid.core.rules.Rules;
import dev.braid.rules.RulesReport;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * {@code braid rules [URL...]}: checks the rules file and prints what it does to each URL: which
 * host rules match, the settings they give, the category's folder.
 */
final class RulesCommand implements Callable<Integer> {
  private final PositionalParamSpec urls = PositionalParamSpec.builder().paramLabel("URL").arity("0..*")
      .type(List.class).auxiliaryTypes(String.class).description("URLs to show the rules of").build();

  private final RulesOptions rules = new RulesOptions();

  CommandSpec spec() {
    CommandSpec spec = CommandModel.command("rules", this,
        "Check the rules file (per-host rules and categories) and show what applies to each URL.",
        "Exits 2, naming the file, line and key, when the file is malformed.");
    spec.addPositional(urls);
    rules.addTo(spec);
    ExitCode.describeIn(spec.usageMessage());
    return spec;
  }

  @Override
  public Integer call() {
    PrintStream out = System.out;
    try {
      Path file = rules.location();
      Rules loaded = rules.load();
      if (file == null) {
        out.println("no rules (--no-rules)");
      } else if (!Files.exists(file)) {
        out.println("no rules file at " + file);
      } else {
        out.println(file + ": " + loaded.hostRules().size() + " host rules, " + loaded.categories().size()
            + " categories");
      }
      for (String url : strings(urls)) {
        out.println(url);
        RulesReport.describe(loaded, url).forEach(line -> out.println("  " + line));
      }
      return ExitCode.OK;
    } catch (InvalidRequestException e) {
      System.err.println("braid: " + e.getMessage());
      return ExitCode.USAGE;
    }
  }
}
