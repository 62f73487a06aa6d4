package dev.braid.cli;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

/**
 * Shows a batch: a line per file as it completes or fails, and a summary line of the whole batch
 * (redrawn on a terminal, every few seconds in logs, never when quiet). Called by the thread
 * that runs the batch only, so lines never interleave.
 */
final class BatchReporter {
  private final PrintStream out;
  private final ProgressLine.Mode mode;
  private final int columns;
  private int lastWidth;
  private long nextDraw;

  /**
   * @param drawAtOnce whether the first line may come at once (a batch's), or only after a period
   *     (one download's: a quick download shows no line)
   * @param columns the terminal's width, which a redrawn line never reaches
   */
  BatchReporter(PrintStream out, ProgressLine.Mode mode, boolean drawAtOnce, int columns) {
    this.out = out;
    this.mode = mode;
    this.columns = columns;
    this.nextDraw = System.nanoTime() + (drawAtOnce ? 0 : periodNanos());
  }

  private long periodNanos() {
    return TimeUnit.MILLISECONDS.toNanos(mode == ProgressLine.Mode.TERMINAL ? 250 : 5_000);
  }

  /** Draws {@code status}'s line when it is due (a daemon's client draws what the daemon tells). */
  void drawIfDue(java.util.function.Supplier<String> status) {
    long now = System.nanoTime();
    // quiet: nothing is drawn, so nothing is formatted (a JVM's first String.format was 14 ms of a
    // daemon's client's start in a wall-clock profile)
    if (mode != ProgressLine.Mode.QUIET && now - nextDraw >= 0) {
      draw(status.get());
      nextDraw = now + periodNanos();
    }
  }

  private void draw(String line) {
    if (mode == ProgressLine.Mode.TERMINAL) {
      line = TerminalWidth.fit(line, columns);
      out.print("\r" + line + " ".repeat(Math.max(0, lastWidth - line.length())));
      lastWidth = line.length();
    } else {
      out.println(line);
    }
    out.flush();
  }

  void line(String text) {
    clear();
    out.println(text);
    out.flush();
  }

  /** Removes the batch's line (on a terminal) once the batch is over. */
  void clear() {
    if (mode == ProgressLine.Mode.TERMINAL && lastWidth > 0) {
      out.print("\r" + " ".repeat(lastWidth) + "\r");
      lastWidth = 0;
      out.flush();
    }
  }
}
