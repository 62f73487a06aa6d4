package dev.braid.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * Lists a command's options under headings in its help, sections in the order added, options in
 * each sorted by name. Only the help changes: picocli's ArgGroups would group the man page too, but
 * they apply no defaults to a group the command line does not name and let a single-valued option
 * be given twice. An option in no section is listed last under "Options:" (a test checks that
 * {@code braid get} has none).
 */
final class OptionSections {
  private final Map<String, List<String>> sections = new LinkedHashMap<>();

  /** A section: its heading, and the longest name of each option it lists. */
  OptionSections section(String heading, String... optionNames) {
    sections.put(heading, List.of(optionNames));
    return this;
  }

  /** Makes {@code spec}'s help list its options under these sections. */
  void applyTo(CommandSpec spec) {
    spec.usageMessage().sectionMap().put(UsageMessageSpec.SECTION_KEY_OPTION_LIST, help -> {
      List<OptionSpec> rest = new ArrayList<>();
      for (OptionSpec o : help.commandSpec().options()) {
        if (!o.hidden()) {
          rest.add(o);
        }
      }
      StringBuilder out = new StringBuilder();
      for (Map.Entry<String, List<String>> s : sections.entrySet()) {
        List<OptionSpec> listed = new ArrayList<>();
        for (String name : s.getValue()) {
          OptionSpec o = help.commandSpec().findOption(name);
          if (o != null && rest.remove(o)) {
            listed.add(o);
          }
        }
        if (!listed.isEmpty()) {
          out.append(String.format("%n%s:%n", s.getKey())).append(help.optionListExcludingGroups(listed));
        }
      }
      if (!rest.isEmpty()) {
        out.append(String.format("%nOptions:%n")).append(help.optionListExcludingGroups(rest));
      }
      return out.toString();
    });
  }
}
