package dev.braid.cli;

import dev.braid.core.ConnectionChange;
import dev.braid.core.Download;
import dev.braid.core.Progress;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Shows a download's progress while the calling thread waits for it: a line redrawn in place on a
 * terminal, a plain line every few seconds otherwise (logs, CI), nothing when quiet.
 */
final class ProgressReporter {
  enum Mode { TERMINAL, LINES, QUIET }

  private final PrintStream out;
  private final Mode mode;
  private final boolean showConnectionChanges;
  private int lastWidth;
  private int changesShown;

  /** With {@code showConnectionChanges}, each change of the connection count is printed on a line of its own. */
  ProgressReporter(PrintStream out, Mode mode, boolean showConnectionChanges) {
    this.out = out;
    this.mode = mode;
    this.showConnectionChanges = showConnectionChanges;
  }

  static Mode detect(boolean quiet) {
    if (quiet) {
      return Mode.QUIET;
    }
    return System.console() != null ? Mode.TERMINAL : Mode.LINES;
  }

  /** Blocks until the download ends, drawing progress meanwhile. */
  void follow(Download d) throws InterruptedException, ExecutionException {
    long period = mode == Mode.TERMINAL ? 250 : 5_000;
    while (true) {
      try {
        d.result().get(period, TimeUnit.MILLISECONDS);
        clear();
        printChanges(d);
        return;
      } catch (TimeoutException e) {
        printChanges(d);
        draw(d.progress());
      } catch (ExecutionException e) {
        clear();
        printChanges(d);
        throw e;
      }
    }
  }

  private void printChanges(Download d) {
    if (!showConnectionChanges) {
      return;
    }
    List<ConnectionChange> changes = d.connectionChanges();
    if (changes.size() > changesShown) {
      clear();
      lastWidth = 0;
      for (ConnectionChange c : changes.subList(changesShown, changes.size())) {
        out.println("braid: " + c);
      }
      changesShown = changes.size();
    }
  }

  private void draw(Progress p) {
    if (mode == Mode.QUIET) {
      return;
    }
    String line = format(p);
    if (mode == Mode.TERMINAL) {
      line = TerminalWidth.fit(line);
      out.print("\r" + line + " ".repeat(Math.max(0, lastWidth - line.length())));
      lastWidth = line.length();
    } else {
      out.println(line);
    }
    out.flush();
  }

  private void clear() {
    if (mode == Mode.TERMINAL && lastWidth > 0) {
      out.print("\r" + " ".repeat(lastWidth) + "\r");
      out.flush();
    }
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
