package dev.braid.cli;

import dev.braid.core.Progress;
import java.util.Locale;

/**
 * How {@code braid get} shows progress: a line redrawn in place on a terminal, a plain line every
 * few seconds otherwise (logs, CI), nothing when quiet; and what one download's line says.
 */
final class ProgressLine {
  enum Mode { TERMINAL, LINES, QUIET }

  private ProgressLine() {}

  static Mode detect(boolean quiet, Caller caller) {
    if (quiet) {
      return Mode.QUIET;
    }
    return caller.console() ? Mode.TERMINAL : Mode.LINES;
  }

  static String format(Progress p) {
    StringBuilder b = new StringBuilder();
    if (p.length() > 0) {
      b.append(String.format(Locale.ROOT, "%5.1f%% ", 100.0 * p.done() / p.length()));
      b.append(Units.bytes(p.done())).append(" / ").append(Units.bytes(p.length()));
    } else {
      b.append(Units.bytes(p.done()));
    }
    b.append("  ").append(Units.bytes(p.bytesPerSecond())).append("/s");
    p.eta().ifPresent(eta -> b.append("  ETA ").append(Units.duration(eta)));
    b.append("  ").append(p.connections()).append(p.connections() == 1 ? " connection" : " connections");
    return b.toString();
  }
}
