package dev.braid.cli;

import dev.braid.core.ConnectionChange;
import dev.braid.core.Download;
import dev.braid.core.DownloadNote;
import dev.braid.core.Progress;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
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
  private final boolean showCourse;
  private int lastWidth;
  private int changesShown;
  private int notesShown;

  /**
   * With {@code showCourse}, each change of the connection count and each note of the download
   * (a mirror left out, a server quirk worked around) is printed on a line of its own.
   */
  ProgressReporter(PrintStream out, Mode mode, boolean showCourse) {
    this.out = out;
    this.mode = mode;
    this.showCourse = showCourse;
  }

  static Mode detect(boolean quiet, Caller caller) {
    if (quiet) {
      return Mode.QUIET;
    }
    return caller.console() ? Mode.TERMINAL : Mode.LINES;
  }

  /** Blocks until the download ends, drawing progress meanwhile. */
  void follow(Download d) throws InterruptedException, ExecutionException {
    long period = mode == Mode.TERMINAL ? 250 : 5_000;
    while (true) {
      try {
        d.result().get(period, TimeUnit.MILLISECONDS);
        clear();
        printCourse(d);
        return;
      } catch (TimeoutException e) {
        printCourse(d);
        draw(d);
      } catch (ExecutionException e) {
        clear();
        printCourse(d);
        throw e;
      }
    }
  }

  /** Prints the connection changes and notes not shown yet, in the order they happened. */
  private void printCourse(Download d) {
    if (!showCourse) {
      return;
    }
    List<ConnectionChange> changes = d.connectionChanges();
    List<DownloadNote> notes = d.notes();
    List<Line> lines = new ArrayList<>();
    for (ConnectionChange c : changes.subList(Math.min(changesShown, changes.size()), changes.size())) {
      lines.add(new Line(c.at(), c.toString()));
    }
    for (DownloadNote n : notes.subList(Math.min(notesShown, notes.size()), notes.size())) {
      lines.add(new Line(n.at(), n.toString()));
    }
    changesShown = changes.size();
    notesShown = notes.size();
    if (!lines.isEmpty()) {
      clear();
      lastWidth = 0;
      lines.sort(Comparator.comparing(Line::at));
      for (Line l : lines) {
        out.println("braid: " + l.text());
      }
    }
  }

  private record Line(Duration at, String text) {}

  private void draw(Download d) {
    if (mode == Mode.QUIET) {
      return;
    }
    // waiting out an outage (--retry-for): what is kept, and until when it waits
    Progress p = d.progress();
    String line = OutageText.of(d).map(w -> "waiting: " + kept(p) + "  " + w).orElseGet(() -> format(p));
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

  private static String kept(Progress p) {
    return p.length() > 0 ? Units.bytes(p.done()) + " / " + Units.bytes(p.length()) + " kept" : Units.bytes(p.done()) + " kept";
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
