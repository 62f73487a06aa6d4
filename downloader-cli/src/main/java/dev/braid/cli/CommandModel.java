package dev.braid.cli;

import dev.braid.core.InvalidRequestException;
import dev.braid.core.Version;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.IFactory;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Builds picocli's model of a command in code, not from annotations. Reading annotations makes a
 * proxy class per annotation type at run time, which AppCDS cannot archive, and reflects over every
 * field: together a third of picocli's share of each command's start-up (docs/benchmarks.md).
 */
final class CommandModel {
  /**
   * The option types picocli need not convert: no model here takes a java.time or java.sql type,
   * and picocli's parser otherwise loads and initialises each of them by reflection (~100 JDK
   * classes) on every start, in case one does.
   */
  private static final String UNUSED_CONVERTERS = "java\\.time\\..*,java\\.sql\\..*";

  static {
    if (System.getProperty("picocli.converters.excludes") == null) {
      System.setProperty("picocli.converters.excludes", UNUSED_CONVERTERS);
    }
  }

  private CommandModel() {}

  /**
   * What picocli asks a factory for once every model is built in code: the list a repeatable
   * option collects into. Asking for anything else is a bug here, not a user's error.
   */
  private static final IFactory LISTS = new IFactory() {
    @Override
    public <K> K create(Class<K> type) {
      if (type == List.class) {
        return type.cast(new ArrayList<>());
      }
      throw new IllegalStateException("picocli asked for a " + type.getName() + ": build that part of the model in code");
    }
  };

  /** The factory for {@code new CommandLine(spec, factory)}: the default one costs ~5 ms to set up. */
  static IFactory factory() {
    return LISTS;
  }

  /** A command running {@code body} (a {@code Callable<Integer>}), with -h/--help and -V/--version. */
  static CommandSpec command(String name, Object body, String... description) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(body, LISTS).name(name);
    spec.usageMessage().description(description);
    spec.addOption(flag("Show this help message and exit.", "-h", "--help").usageHelp(true).build());
    spec.addOption(flag("Print version information and exit.", "-V", "--version").versionHelp(true).build());
    spec.versionProvider(() -> new String[] {"braid " + Version.get()});
    return spec;
  }

  /** An option without a value; read it with {@link #isSet}. */
  static OptionSpec.Builder flag(String description, String... names) {
    return OptionSpec.builder(names).arity("0").type(boolean.class).description(description);
  }

  /** An option taking one value of {@code type}. */
  static OptionSpec.Builder option(Class<?> type, String paramLabel, String description, String... names) {
    return OptionSpec.builder(names).type(type).paramLabel(paramLabel).description(description);
  }

  /** A repeatable option collecting strings; read it with {@link #strings}. */
  static OptionSpec.Builder repeatable(String paramLabel, String description, String... names) {
    return OptionSpec.builder(names).type(List.class).auxiliaryTypes(String.class).paramLabel(paramLabel)
        .description(description);
  }

  /** The value of an option in seconds, as a duration (to the millisecond). */
  static Duration seconds(OptionSpec seconds) {
    return Duration.ofMillis((long) (seconds.<Double>getValue() * 1000));
  }

  /** A library default in seconds, as an option's default value ("15", "0.25"): the CLI does not retype it. */
  static String secondsText(Duration d) {
    return BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString();
  }

  /**
   * Hands an option's value to a library setter; the setter's complaint (an
   * {@link IllegalArgumentException} naming its parameter) becomes a usage error naming the option.
   */
  static void set(OptionSpec option, Runnable setter) throws InvalidRequestException {
    try {
      setter.run();
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException(option.longestName() + ": " + e.getMessage(), e);
    }
  }

  /** Whether the command line gave {@code option} (its default value does not count). */
  static boolean given(OptionSpec option) {
    return !option.originalStringValues().isEmpty();
  }

  static boolean isSet(OptionSpec flag) {
    return Boolean.TRUE.equals(flag.getValue());
  }

  /** The strings a repeatable option or parameter collected, empty when it was not given. */
  static List<String> strings(ArgSpec arg) {
    List<String> values = arg.getValue();
    return values == null ? List.of() : values;
  }
}
