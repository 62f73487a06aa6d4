package dev.braid.cli;

import dev.braid.client.DownloadView;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Optional;

/**
 * How the command line shows a download waiting out an outage: its state as {@code waiting}
 * (queued, with a next try), the time of the next try in local time, and the last error, the same
 * for a download read here and one a client of the port reports.
 */
final class OutageText {
  /** The state shown for a queued download waiting for its next try. */
  static final String WAITING = "waiting";
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);
  private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

  private OutageText() {}

  /** {@code d}'s state as the command line shows it: lower case, {@link #WAITING} while it waits out an outage. */
  static String state(DownloadView d) {
    return d.outageWait() != null ? WAITING : d.state().name().toLowerCase(Locale.ROOT);
  }

  /** {@code next try 16:05:03 (3 failed: connection refused)}, for a download waiting out an outage. */
  static Optional<String> of(DownloadView d) {
    return Optional.ofNullable(d.outageWait()).map(w -> line(w.nextTry(), w.failedRuns(), w.lastError()));
  }

  static String line(Instant next, int failed, String error) {
    return "next try " + clock(next) + " (" + failed + (failed == 1 ? " try" : " tries") + " failed: "
        + printable(error) + ")";
  }

  /** {@code t} in local time: the time alone today, with the date otherwise. */
  static String clock(Instant t) {
    ZonedDateTime z = t.atZone(ZoneId.systemDefault());
    return (z.toLocalDate().equals(LocalDate.now(z.getZone())) ? TIME : DATE_TIME).format(z);
  }

  /** A server's text without control characters, before it reaches a terminal. */
  private static String printable(String s) {
    return s == null ? "" : s.codePoints().filter(c -> !Character.isISOControl(c))
        .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
  }
}
