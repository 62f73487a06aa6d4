package dev.braid.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The terminal's width, so that a progress line redrawn in place never wraps (a wrapped line is
 * redrawn below itself, filling the screen). $COLUMNS when exported, else {@code stty size} on
 * /dev/tty, asked once per run, else 80.
 */
final class TerminalWidth {
  private static final int FALLBACK = 80;

  private static volatile int columns;

  private TerminalWidth() {}

  /** {@code line} cut to one character less than the terminal's width (the cursor's last column). */
  static String fit(String line) {
    return fit(line, columns());
  }

  /** {@code line} cut to {@code columns - 1} characters. */
  static String fit(String line, int columns) {
    int max = Math.max(1, columns - 1);
    return line.length() <= max ? line : line.substring(0, max);
  }

  static int columns() {
    int c = columns;
    if (c == 0) {
      c = parse(System.getenv("COLUMNS"));
      if (c == 0) {
        c = stty();
      }
      columns = c == 0 ? FALLBACK : c;
    }
    return columns;
  }

  /** A positive number, or 0. */
  static int parse(String value) {
    // digits by hand, not a regex: a relayed get reads this at start, and the JVM's first regex costs ~10 ms
    if (value == null || value.isEmpty() || value.length() > 5) {
      return 0;
    }
    for (int i = 0; i < value.length(); i++) {
      if (value.charAt(i) < '0' || value.charAt(i) > '9') {
        return 0;
      }
    }
    return Integer.parseInt(value);
  }

  /** The columns {@code stty size} reports ("ROWS COLUMNS"), or 0 without a terminal or stty. */
  private static int stty() {
    try {
      Process p = new ProcessBuilder("stty", "size").redirectInput(new File("/dev/tty"))
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
      if (!p.waitFor(2, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return 0;
      }
      int space = out.indexOf(' ');
      return space < 0 ? 0 : parse(out.substring(space + 1));
    } catch (IOException e) {
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
  }
}
