package dev.braid.core;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Limits on all downloads together by time of day: {@code WINDOW=RATE,...}, e.g.
 * {@code 09:00-18:00=2M,18:00-09:00=0}. A WINDOW is a {@link RunWindow} (days optional); a RATE is
 * bytes per second as {@link ByteSize} reads it, 0 for no limit. The first window
 * that holds the time gives the limit; where none does, the limit set with
 * {@link BraidBuilder#rateLimit} or {@link Braid#rateLimit(long)} applies.
 *
 * @param entries the windows with their limits, in order
 */
public record SpeedSchedule(List<Entry> entries) {
  /** The key of a queue's speed schedule in its state database's settings ({@link Braid#settings()}). */
  public static final String SETTING = "schedule.speed";
  /** No limits by time: the set limit applies all day. */
  public static final SpeedSchedule NONE = new SpeedSchedule(List.of());

  /**
   * A window and its limit.
   *
   * @param window when it applies
   * @param bytesPerSecond the limit then, 0 for none
   */
  public record Entry(RunWindow window, long bytesPerSecond) {
    /**
     * Checks its arguments.
     *
     * @param window when it applies
     * @param bytesPerSecond the limit then, 0 or more; 0 for none
     */
    public Entry {
      Objects.requireNonNull(window, "window");
      if (bytesPerSecond < 0) {
        throw new IllegalArgumentException("bytesPerSecond cannot be negative, not " + bytesPerSecond);
      }
    }

    @Override
    public String toString() {
      return window + "=" + ByteSize.format(bytesPerSecond);
    }
  }

  /**
   * Copies the entries.
   *
   * @param entries the windows with their limits, in order
   */
  public SpeedSchedule {
    entries = List.copyOf(entries);
  }

  /**
   * Reads a schedule; blank text is {@link #NONE}.
   *
   * @param text {@code WINDOW=RATE,...}, or blank
   * @return the schedule
   * @throws IllegalArgumentException with what is wrong
   */
  public static SpeedSchedule parse(String text) {
    List<Entry> out = new ArrayList<>();
    for (String part : Objects.requireNonNull(text, "text").split(",")) {
      if (part.isBlank()) {
        continue;
      }
      int eq = part.lastIndexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException("'" + part.strip() + "' is not WINDOW=RATE, e.g. 09:00-18:00=2M");
      }
      out.add(new Entry(RunWindow.parse(part.substring(0, eq)), rate(part.substring(eq + 1), part)));
    }
    return new SpeedSchedule(out);
  }

  /**
   * {@return the limit at {@code at}, if a window holds it}
   *
   * @param at a local date and time
   */
  public OptionalLong rateAt(LocalDateTime at) {
    for (Entry e : entries) {
      if (e.window().contains(at)) {
        return OptionalLong.of(e.bytesPerSecond());
      }
    }
    return OptionalLong.empty();
  }

  /**
   * {@return the index of the entry that holds {@code at}, -1 for none}
   *
   * @param at a time of day and date
   */
  public int entryAt(LocalDateTime at) {
    for (int i = 0; i < entries.size(); i++) {
      if (entries.get(i).window().contains(at)) {
        return i;
      }
    }
    return -1;
  }

  private static long rate(String value, String part) {
    try {
      return ByteSize.parse(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + part.strip() + "': " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return String.join(",", entries.stream().map(Entry::toString).toList());
  }
}
