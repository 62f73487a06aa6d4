package dev.braid.core.internal.fetch;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parsed {@code Content-Range: bytes first-last/total} header; {@code total} is -1 for {@code *}.
 * For an unsatisfied range ({@code bytes * /total}) first and last are -1.
 */
public record ContentRange(long first, long last, long total) {
  private static final Pattern SATISFIED = Pattern.compile("\\s*bytes\\s+(\\d{1,19})-(\\d{1,19})/(\\d{1,19}|\\*)\\s*");
  private static final Pattern UNSATISFIED = Pattern.compile("\\s*bytes\\s+\\*/(\\d{1,19})\\s*");

  /** Parses the header, or returns null when it is absent or malformed. */
  public static ContentRange parse(String header) {
    if (header == null) {
      return null;
    }
    try {
      Matcher m = SATISFIED.matcher(header);
      if (m.matches()) {
        long first = Long.parseLong(m.group(1));
        long last = Long.parseLong(m.group(2));
        long total = m.group(3).equals("*") ? -1 : Long.parseLong(m.group(3));
        if (last < first || (total >= 0 && last >= total)) {
          return null;
        }
        return new ContentRange(first, last, total);
      }
      m = UNSATISFIED.matcher(header);
      return m.matches() ? new ContentRange(-1, -1, Long.parseLong(m.group(1))) : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
