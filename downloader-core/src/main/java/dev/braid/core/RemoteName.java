package dev.braid.core;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The one sanitiser of names that come from outside (a server's header or URL, each part of a
 * Metalink's path). A remote name is untrusted input: whatever it holds, the result is one plain
 * path component that cannot leave the target folder, is not hidden, holds no control or format
 * character (no bidi override), is not a device name, and fits in a file system's 255 bytes with
 * the {@code .part} suffix of a running download. In the API because a {@link Metalink}'s names
 * are cleaned when it is parsed, by the same rules as the engine's.
 */
public final class RemoteName {
  /** What a name is when nothing usable is left of it. */
  public static final String FALLBACK = "download";
  /** NAME_MAX of Linux and the BSDs, macOS and Windows file systems, less the {@code .part} suffix. */
  public static final int MAX_BYTES = 255 - ".part".length();
  private static final Pattern RESERVED = Pattern.compile("(?i)^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\\..*)?$");

  private RemoteName() {}

  /**
   * Reduces any string to a safe single file name, {@value #FALLBACK} when nothing usable is left:
   * only its last path component, control and format characters (bidi overrides among them) and
   * Windows' forbidden ones replaced by {@code _}, no leading dot (no hidden file), no trailing dot
   * or space, a device name prefixed, cut to {@link #MAX_BYTES} bytes of UTF-8 keeping the
   * extension, and never ending in {@code .part}.
   *
   * @param raw a name from outside: a header's, a URL's, a part of a Metalink's path
   * @return a safe single file name
   */
  public static String sanitize(String raw) {
    String name = raw;
    // only the last component: "../../etc/passwd" and "C:\\x\\y" both end in a plain name
    name = name.substring(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
    StringBuilder b = new StringBuilder(name.length());
    name.codePoints().forEach(c -> {
      if (unprintable(c) || "<>:\"|?*".indexOf(c) >= 0) {
        b.append('_');
      } else {
        b.appendCodePoint(c);
      }
    });
    name = b.toString().strip();
    // no hidden files, no "." or ".."; Windows drops trailing dots and spaces itself
    name = withoutDotsAround(name);
    if (RESERVED.matcher(name).matches()) {
      name = "_" + name;
    }
    name = truncate(name);
    if (name.toLowerCase(Locale.ROOT).endsWith(".part")) {
      // the cut keeps the extension: ".part_" stays whole
      name = truncate(name + "_");
    }
    return name.isEmpty() ? FALLBACK : name;
  }

  /** {@code name} without leading and trailing dots and blanks, in one pass each (a regex's "[.\\s]+$" is quadratic). */
  private static String withoutDotsAround(String name) {
    int from = 0;
    int to = name.length();
    while (from < to && dotOrBlank(name.charAt(from))) {
      from++;
    }
    while (to > from && dotOrBlank(name.charAt(to - 1))) {
      to--;
    }
    return name.substring(from, to);
  }

  private static boolean dotOrBlank(char c) {
    return c == '.' || Character.isWhitespace(c);
  }

  /**
   * Whether a character is one no remote name may hold: C0 and C1 controls and DEL, format
   * characters (bidi overrides, zero-width ones), line and paragraph separators.
   *
   * @param c a code point
   * @return true when no remote name may hold it
   */
  public static boolean unprintable(int c) {
    int type = Character.getType(c);
    return type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
        || type == Character.PARAGRAPH_SEPARATOR;
  }

  private static String truncate(String name) {
    if (name.getBytes(StandardCharsets.UTF_8).length <= MAX_BYTES) {
      return name;
    }
    int dot = name.lastIndexOf('.');
    String ext = dot > 0 && name.length() - dot <= 16 ? name.substring(dot) : "";
    String stem = ext.isEmpty() ? name : name.substring(0, dot);
    int budget = MAX_BYTES - ext.getBytes(StandardCharsets.UTF_8).length;
    StringBuilder out = new StringBuilder();
    int used = 0;
    for (int i = 0; i < stem.length(); ) {
      int c = stem.codePointAt(i);
      int size = new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8).length;
      if (used + size > budget) {
        break;
      }
      out.appendCodePoint(c);
      used += size;
      i += Character.charCount(c);
    }
    // a cut without an extension kept may end in a dot or a blank, as the strip before it did not
    return ext.isEmpty() ? withoutDotsAround(out.toString()) : out + ext;
  }
}
