package dev.braid.rules;

import java.util.Locale;

/** A rate as the CLI's {@code --limit-rate} takes it: {@code 500K}, {@code 4M}, {@code 1G} or bytes (binary units). */
final class ByteSize {
  private ByteSize() {}

  static long parse(String value) {
    String v = value.strip().toUpperCase(Locale.ROOT).replaceFirst("I?B$", "");
    long factor = 1;
    if (!v.isEmpty() && "KMGT".indexOf(v.charAt(v.length() - 1)) >= 0) {
      factor = 1L << (10 * ("KMGT".indexOf(v.charAt(v.length() - 1)) + 1));
      v = v.substring(0, v.length() - 1);
    }
    try {
      double n = Double.parseDouble(v);
      if (n >= 0 && n * factor <= Long.MAX_VALUE) {
        return (long) (n * factor);
      }
    } catch (NumberFormatException e) {
      // the message below names the value
    }
    throw new IllegalArgumentException("'" + value + "' is not a rate (bytes per second, e.g. 500K, 4M, 1G)");
  }

  /** Bytes as the file takes them back: {@code 4M}, or a byte count when no unit divides it. */
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
