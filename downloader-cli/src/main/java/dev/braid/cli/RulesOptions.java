package dev.braid.cli;

import static dev.braid.cli.CommandModel.flag;
import static dev.braid.cli.CommandModel.isSet;
import static dev.braid.cli.CommandModel.option;

import dev.braid.core.InvalidRequestException;
import dev.braid.core.rules.Rules;
import dev.braid.rules.RulesFile;
import dev.braid.rules.RulesFileException;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** {@code --rules FILE} and {@code --no-rules}: which per-host rules and categories a command runs with. */
final class RulesOptions {
  private final OptionSpec file = option(Path.class, "FILE", "per-host rules and categories from FILE (default:"
      + " $XDG_CONFIG_HOME/braid/rules.toml, else ~/.config/braid/rules.toml, when it exists); options given here win"
      + " over them", "--rules").build();

  private final OptionSpec none = flag("ignore the rules file", "--no-rules").build();

  void addTo(CommandSpec spec) {
    spec.addOption(file);
    spec.addOption(none);
  }

  /** The rules file these options name: {@code --rules}, else the default location; null with {@code --no-rules}. */
  Path location() {
    if (isSet(none)) {
      return null;
    }
    Path given = file.getValue();
    return given != null ? given : RulesFile.defaultLocation();
  }

  /**
   * The rules to run with; a malformed file (or a missing one named by --rules) is a usage error
   * naming the file, line and key.
   */
  Rules load() throws InvalidRequestException {
    if (isSet(none) && file.getValue() != null) {
      throw new InvalidRequestException("--rules and --no-rules exclude each other");
    }
    try {
      return RulesFile.load(file.getValue(), isSet(none));
    } catch (RulesFileException e) {
      throw new InvalidRequestException("rules file " + e.getMessage(), e);
    }
  }
}
