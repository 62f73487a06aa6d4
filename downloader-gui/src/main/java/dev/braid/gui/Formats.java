package dev.braid.gui;

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
   * Reads a speed limit as typed: "0" or blank is unlimited, else a number with an optional unit
   * K, M or G (binary, as the CLI's {@code --limit-rate}), e.g. "500K", "4M", "1.5M".
   *
   * @throws IllegalArgumentException when the text is not such a number
   */
  static long parseRate(String text) {
    String t = text == null ? "" : text.trim().toUpperCase(Locale.ROOT);
    if (t.endsWith("/S")) {
      t = t.substring(0, t.length() - 2).trim();
    }
    if (t.endsWith("IB")) {
      t = t.substring(0, t.length() - 2);
    } else if (t.endsWith("B")) {
      t = t.substring(0, t.length() - 1);
    }
    t = t.trim();
    if (t.isEmpty() || t.equals("0") || t.equals("UNLIMITED") || t.equals("∞")) {
      return 0;
    }
    long scale = 1;
    char last = t.charAt(t.length() - 1);
    int power = "KMG".indexOf(last);
    if (power >= 0) {
      scale = 1L << (10 * (power + 1));
      t = t.substring(0, t.length() - 1).trim();
    }
    double v;
    try {
      v = Double.parseDouble(t);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a speed: " + text);
    }
    if (v < 0 || Double.isNaN(v) || Double.isInfinite(v)) {
      throw new IllegalArgumentException("not a speed: " + text);
    }
    return Math.round(v * scale);
  }

  /** The inverse of {@link #parseRate} for a field's text: "unlimited" for 0, else e.g. "4M". */
  static String rate(long bytesPerSecond) {
    if (bytesPerSecond <= 0) {
      return "unlimited";
    }
    String[] suffix = {"", "K", "M", "G"};
    int unit = 0;
    double v = bytesPerSecond;
    while (v >= 1024 && unit < suffix.length - 1 && v % 1024 == 0) {
      v /= 1024;
      unit++;
    }
    return String.format(Locale.ROOT, "%.0f%s", v, suffix[unit]);
  }
}
