package dev.braid.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads an option's duration: a number with a unit, {@code 30s}, {@code 10m}, {@code 1.5h}, {@code 2d}; a bare number is seconds. */
final class DurationConverter implements ITypeConverter<Duration> {
  private static final Pattern FORM = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h|d)?");

  @Override
  public Duration convert(String value) {
    return parse(value);
  }

  /** The duration {@code value} names; a {@link TypeConversionException} saying the form for anything else. */
  static Duration parse(String value) {
    Matcher m = FORM.matcher(value.strip().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new TypeConversionException("'" + value + "' is not a duration such as 30s, 10m, 1h or 2d");
    }
    double n = Double.parseDouble(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    double millis = n * switch (unit) {
      case "ms" -> 1;
      case "m" -> 60_000;
      case "h" -> 3_600_000;
      case "d" -> 86_400_000;
      default -> 1_000;
    };
    if (millis > Long.MAX_VALUE / 2) {
      throw new TypeConversionException("'" + value + "' is too long a duration");
    }
    return Duration.ofMillis(Math.round(millis));
  }
}
