package dev.braid.cli;

import java.time.Duration;
import java.util.Locale;

/** Human-readable sizes, speeds and durations for the progress line and summaries. */
final class Units {
  private static final String[] BYTES = {"B", "KiB", "MiB", "GiB", "TiB"};

  private Units() {}

  static String bytes(double n) {
    int unit = 0;
    while (n >= 1024 && unit < BYTES.length - 1) {
      n /= 1024;
      unit++;
    }
    return unit == 0 ? String.format(Locale.ROOT, "%.0f %s", n, BYTES[0]) : String.format(Locale.ROOT, "%.1f %s", n, BYTES[unit]);
  }

  static String duration(Duration d) {
    long s = d.toSeconds();
    if (s < 60) {
      return String.format(Locale.ROOT, "%.1fs", d.toMillis() / 1000.0);
    }
    if (s < 3600) {
      return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }
    return String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
  }
}
