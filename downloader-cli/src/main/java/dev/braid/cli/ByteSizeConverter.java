package dev.braid.cli;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parses sizes like {@code 4M}, {@code 500K}, {@code 1G} or a plain byte count (binary units). */
final class ByteSizeConverter implements ITypeConverter<Long> {
  @Override
  public Long convert(String value) {
    String v = value.trim().toUpperCase(Locale.ROOT).replaceFirst("I?B$", "");
    long factor = 1;
    if (!v.isEmpty() && "KMGT".indexOf(v.charAt(v.length() - 1)) >= 0) {
      factor = 1L << (10 * ("KMGT".indexOf(v.charAt(v.length() - 1)) + 1));
      v = v.substring(0, v.length() - 1);
    }
    try {
      double n = Double.parseDouble(v);
      if (n < 0 || Double.isNaN(n) || n * factor > Long.MAX_VALUE) {
        throw new TypeConversionException("'" + value + "' is not a size");
      }
      return (long) (n * factor);
    } catch (NumberFormatException e) {
      throw new TypeConversionException("'" + value + "' is not a size (e.g. 500K, 4M, 1G)");
    }
  }

  /** A size as an option takes it: {@code 1K}, {@code 4M}, or a byte count when no unit divides it. */
  static String text(long bytes) {
    String units = "KMGT";
    for (int u = units.length(); u >= 1; u--) {
      long factor = 1L << (10 * u);
      if (bytes != 0 && bytes % factor == 0) {
        return bytes / factor + String.valueOf(units.charAt(u - 1));
      }
    }
    return String.valueOf(bytes);
  }
}
