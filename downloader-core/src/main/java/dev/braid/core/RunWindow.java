package dev.braid.core;

import java.time.DayOfWeek;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * A time of the week: {@code [DAYS ]HH:MM-HH:MM}, e.g. {@code Mon-Fri 01:00-07:00}, {@code 22:00-06:00}
 * (every day; it runs past midnight into the next day), {@code Sat+Sun 00:00-24:00}. DAYS is a day
 * ({@code Mon} ... {@code Sun}) or a range ({@code Mon-Fri}, {@code Fri-Mon}), several joined by
 * {@code +}; a window past midnight belongs to the day it starts on. The start is in the window,
 * the end is not; equal times mean the whole day. Times are the clock's local time
 * ({@link BraidBuilder#clock}).
 *
 * @param days the days it starts on (never empty)
 * @param start when it opens
 * @param end when it closes ({@code 00:00} for midnight)
 */
public record RunWindow(Set<DayOfWeek> days, LocalTime start, LocalTime end) {
  /** The key of a queue's windows in its state database's settings ({@link Braid#settings()}), as {@link #toText} writes them. */
  public static final String SETTING = "schedule.runWindows";
  private static final List<String> NAMES = List.of("mon", "tue", "wed", "thu", "fri", "sat", "sun");

  /**
   * Checks its arguments and copies the days.
   *
   * @param days the days it starts on; at least one
   * @param start when it opens
   * @param end when it closes
   */
  public RunWindow {
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(end, "end");
    if (days == null || days.isEmpty()) {
      throw new IllegalArgumentException("a window needs at least one day");
    }
    days = Set.copyOf(days);
  }

  /**
   * Reads one window.
   *
   * @param text a window, as in {@code Mon-Fri 01:00-07:00}
   * @return the window
   * @throws IllegalArgumentException with what is wrong, for text that is not a window
   */
  public static RunWindow parse(String text) {
    String t = Objects.requireNonNull(text, "text").strip();
    int space = t.lastIndexOf(' ');
    Set<DayOfWeek> days = space < 0 ? EnumSet.allOf(DayOfWeek.class) : days(t.substring(0, space).strip(), text);
    String times = space < 0 ? t : t.substring(space + 1);
    int dash = times.indexOf('-');
    if (dash < 0) {
      throw new IllegalArgumentException("'" + text + "' is not a window: [DAYS ]HH:MM-HH:MM, e.g. Mon-Fri 01:00-07:00");
    }
    return new RunWindow(days, time(times.substring(0, dash), text), time(times.substring(dash + 1), text));
  }

  /**
   * Reads windows separated by commas; blank text is none.
   *
   * @param text windows separated by commas, or blank
   * @return the windows, in order
   * @throws IllegalArgumentException with what is wrong, for text that is not a list of windows
   */
  public static List<RunWindow> parseList(String text) {
    List<RunWindow> out = new ArrayList<>();
    for (String part : Objects.requireNonNull(text, "text").split(",")) {
      if (!part.isBlank()) {
        out.add(parse(part));
      }
    }
    return List.copyOf(out);
  }

  /**
   * {@return the windows as {@link #parseList} reads them}
   *
   * @param windows the windows, in order
   */
  public static String toText(List<RunWindow> windows) {
    return String.join(",", windows.stream().map(RunWindow::toString).toList());
  }

  /**
   * {@return whether {@code at} is in this window}
   *
   * @param at a local date and time
   */
  public boolean contains(LocalDateTime at) {
    LocalTime t = at.toLocalTime();
    DayOfWeek day = at.getDayOfWeek();
    if (start.equals(end)) {
      return days.contains(day);
    }
    if (start.isBefore(end)) {
      return days.contains(day) && !t.isBefore(start) && t.isBefore(end);
    }
    // past midnight: the evening of a listed day, or the morning after one
    return (days.contains(day) && !t.isBefore(start)) || (days.contains(day.minus(1)) && t.isBefore(end));
  }

  private static Set<DayOfWeek> days(String spec, String text) {
    Set<DayOfWeek> out = EnumSet.noneOf(DayOfWeek.class);
    for (String part : spec.split("\\+")) {
      String[] range = part.strip().split("-", -1);
      if (range.length > 2) {
        throw new IllegalArgumentException("'" + text + "': '" + part + "' is not a day or a range of days");
      }
      DayOfWeek from = day(range[0], text);
      DayOfWeek to = range.length == 2 ? day(range[1], text) : from;
      for (DayOfWeek d = from; ; d = d.plus(1)) {
        out.add(d);
        if (d == to) {
          break;
        }
      }
    }
    return out;
  }

  private static DayOfWeek day(String name, String text) {
    int i = NAMES.indexOf(name.strip().toLowerCase(Locale.ROOT));
    if (i < 0) {
      throw new IllegalArgumentException("'" + text + "': '" + name.strip() + "' is not a day (Mon, Tue, Wed, Thu, Fri, Sat, Sun)");
    }
    return DayOfWeek.of(i + 1);
  }

  private static LocalTime time(String s, String text) {
    String v = s.strip();
    if (v.equals("24:00")) {
      return LocalTime.MIDNIGHT;
    }
    try {
      return LocalTime.parse(v.length() == 4 ? "0" + v : v);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("'" + text + "': '" + v + "' is not a time (HH:MM)");
    }
  }

  private static String name(DayOfWeek d) {
    String n = NAMES.get(d.ordinal());
    return Character.toUpperCase(n.charAt(0)) + n.substring(1);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    if (days.size() < 7) {
      // runs of three days or more as ranges: Mon-Fri, Sat+Sun
      List<String> parts = new ArrayList<>();
      DayOfWeek[] all = DayOfWeek.values();
      for (int i = 0; i < all.length; i++) {
        if (!days.contains(all[i])) {
          continue;
        }
        int j = i;
        while (j + 1 < all.length && days.contains(all[j + 1])) {
          j++;
        }
        if (j - i >= 2) {
          parts.add(name(all[i]) + "-" + name(all[j]));
        } else {
          for (int k = i; k <= j; k++) {
            parts.add(name(all[k]));
          }
        }
        i = j;
      }
      sb.append(String.join("+", parts)).append(' ');
    }
    return sb.append(start).append('-').append(end.equals(LocalTime.MIDNIGHT) ? "24:00" : end).toString();
  }
}
