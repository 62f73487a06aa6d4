package dev.braid.gui;

import dev.braid.core.ByteSize;
import java.time.Duration;
import java.util.Locale;

/** How sizes, speeds and times read in the window: binary units, one decimal, never a raw byte count. */
final class Formats {
  private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB"};
  static final String NONE = "—";

  private Formats() {}

  static String bytes(long n) {
    if (n < 0) {
      return NONE;
    }
    if (n < 1024) {
      return n + " B";
    }
    double v = n;
    int unit = 0;
    while (v >= 1024 && unit < UNITS.length - 1) {
      v /= 1024;
      unit++;
    }
    return String.format(Locale.ROOT, v >= 100 ? "%.0f %s" : "%.1f %s", v, UNITS[unit]);
  }

  static String speed(double bytesPerSecond) {
    if (bytesPerSecond <= 0) {
      return NONE;
    }
    return bytes(Math.round(bytesPerSecond)) + "/s";
  }

  /** Hours and minutes, minutes and seconds, or seconds: the two largest parts a person reads. */
  static String eta(Duration d) {
    if (d == null || d.isNegative()) {
      return NONE;
    }
    long s = d.toSeconds();
    if (s >= 3600) {
      return String.format(Locale.ROOT, "%dh %02dm", s / 3600, s % 3600 / 60);
    }
    if (s >= 60) {
      return String.format(Locale.ROOT, "%dm %02ds", s / 60, s % 60);
    }
    return s + "s";
  }

  /**
   * Reads a speed limit as typed: blank, "0", "unlimited" or "∞" is unlimited (0); else a size as
   * {@link ByteSize} reads it, e.g. "500K", "4M", "1.5M", optionally per second as the window
   * shows speeds ("4 MiB/s").
   *
   * @throws IllegalArgumentException when the text is not such a speed
   */
  static long parseRate(String text) {
    String t = text == null ? "" : text.strip();
    if (t.regionMatches(true, t.length() - 2, "/s", 0, 2)) {
      t = t.substring(0, t.length() - 2);
    }
    if (t.isBlank() || t.equalsIgnoreCase("unlimited") || t.equals("∞")) {
      return 0;
    }
    try {
      return ByteSize.parse(t);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Not a speed: " + e.getMessage(), e);
    }
  }

  /** The inverse of {@link #parseRate} for a field's text: "unlimited" for 0, else e.g. "4M". */
  static String rate(long bytesPerSecond) {
    return bytesPerSecond <= 0 ? "unlimited" : ByteSize.format(bytesPerSecond);
  }
}
