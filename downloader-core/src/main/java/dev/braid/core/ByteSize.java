package dev.braid.core;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one way Braid reads and writes a size or a rate (bytes, or bytes per second) given as text,
 * for every face: the CLI's options, the RPC's aria2 options, the desktop app's fields, the rules
 * file and the speed schedule.
 *
 * <p>The rule is aria2's, widened: a number of bytes, optionally followed by a unit {@code K},
 * {@code M}, {@code G} or {@code T}, each 1024 times the one before ({@code 1K} = 1024,
 * {@code 1M} = 1024K), in either case. After the unit a {@code B} or {@code iB} may follow
 * ({@code 4MB} and {@code 4MiB} are both {@code 4M}), and blanks may stand around the number and
 * between it and the unit. Every form aria2 takes ({@code 500K}, {@code 4m}, {@code 1048576},
 * {@code +5}) reads the same here; beyond aria2, the number may have a decimal fraction
 * ({@code 1.5M}), a fraction of a byte being dropped, and {@code G} and {@code T} are known. Signs
 * other than {@code +}, exponents, other units and values past {@link Long#MAX_VALUE} bytes are
 * refused. What {@code 0} means (often "no limit") is the caller's to say.
 */
public final class ByteSize {
  private static final String UNITS = "KMGT";
  private static final Pattern FORM = Pattern.compile("\\+?(\\d+(?:\\.\\d*)?|\\.\\d+)\\s*(?:([KMGT])(?:I?B)?|B)?");
  private static final BigDecimal MAX = BigDecimal.valueOf(Long.MAX_VALUE);

  private ByteSize() {}

  /**
   * Reads a size, e.g. {@code 500K}, {@code 1.5M}, {@code 2g}, {@code 4 MiB} or {@code 1000}.
   *
   * @return the number of bytes, zero or more
   * @param text the size as text
   * @throws IllegalArgumentException with a message that quotes the text and says what is wrong:
   *     null, blank, negative, not of the form above, or more than {@link Long#MAX_VALUE} bytes
   */
  public static long parse(String text) {
    if (text == null) {
      throw new IllegalArgumentException("a size cannot be null");
    }
    String t = text.strip().toUpperCase(Locale.ROOT);
    Matcher m = FORM.matcher(t);
    if (!m.matches()) {
      if (t.startsWith("-") && FORM.matcher(t.substring(1)).matches()) {
        throw new IllegalArgumentException("'" + text + "' is negative; a size is zero or more");
      }
      throw new IllegalArgumentException("'" + text + "' is not a number of bytes with an optional unit K, M, G or T"
          + " (1K = 1024), e.g. 500K, 1.5M, 2G");
    }
    BigDecimal bytes = new BigDecimal(m.group(1));
    if (m.group(2) != null) {
      bytes = bytes.multiply(BigDecimal.valueOf(unit(UNITS.indexOf(m.group(2)) + 1)));
    }
    bytes = bytes.setScale(0, RoundingMode.DOWN);
    if (bytes.compareTo(MAX) > 0) {
      throw new IllegalArgumentException("'" + text + "' is more than the largest size, " + Long.MAX_VALUE + " bytes");
    }
    return bytes.longValueExact();
  }

  /**
   * Writes a size so that {@link #parse} reads it back: with the largest unit that divides it
   * exactly ({@code 4M}, {@code 1536K}), else as a plain byte count ({@code 1000}, {@code 0}).
   *
   * @param bytes a size, zero or more
   * @return the size as {@link #parse} reads it
   * @throws IllegalArgumentException when {@code bytes} is negative
   */
  public static String format(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("a size cannot be negative, not " + bytes);
    }
    for (int u = UNITS.length(); u >= 1 && bytes != 0; u--) {
      if (bytes % unit(u) == 0) {
        return bytes / unit(u) + String.valueOf(UNITS.charAt(u - 1));
      }
    }
    return Long.toString(bytes);
  }

  /** 1024 to the power {@code u}: K is 1, M is 2, ... */
  private static long unit(int u) {
    return 1L << (10 * u);
  }
}
