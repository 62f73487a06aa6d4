package dev.braid.core.io;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Chooses a local file name from what the server says. A server-supplied name is untrusted input:
 * whatever it holds, the result is one plain path component that cannot leave the target folder,
 * is not hidden, is not a device name, and fits every common filesystem.
 */
public final class FileNames {
  static final String FALLBACK = "download";
  private static final int MAX_BYTES = 200;
  private static final Pattern EXTENDED = Pattern.compile("(?i)(?:^|;)\\s*filename\\*\\s*=\\s*([^';]+)'[^']*'([^;]+)");
  private static final Pattern QUOTED = Pattern.compile("(?i)(?:^|;)\\s*filename\\s*=\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
  private static final Pattern TOKEN = Pattern.compile("(?i)(?:^|;)\\s*filename\\s*=\\s*([^;\\s\"]+)");
  private static final Pattern LEADING_DOTS = Pattern.compile("^[.\\s]+");
  private static final Pattern TRAILING_DOTS = Pattern.compile("[.\\s]+$");
  private static final Pattern RESERVED = Pattern.compile("(?i)^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\\..*)?$");

  private FileNames() {}

  /**
   * The name for a download: Content-Disposition's {@code filename*} (RFC 5987), then its
   * {@code filename}, then the last segment of the URL path; always sanitised.
   */
  public static String choose(String contentDisposition, URI uri) {
    String fromHeader = contentDisposition == null ? null : fromDisposition(contentDisposition);
    if (fromHeader != null) {
      String name = sanitize(fromHeader);
      if (!name.equals(FALLBACK)) {
        return name;
      }
    }
    return sanitize(fromPath(uri));
  }

  static String fromDisposition(String header) {
    Matcher m = EXTENDED.matcher(header);
    if (m.find()) {
      try {
        Charset charset = Charset.forName(m.group(1).trim());
        return URLDecoder.decode(m.group(2).trim().replace("+", "%2B"), charset);
      } catch (IllegalArgumentException e) {
        // an unknown charset or broken escape: fall through to the plain parameter
      }
    }
    m = QUOTED.matcher(header);
    if (m.find()) {
      return m.group(1).replaceAll("\\\\(.)", "$1");
    }
    m = TOKEN.matcher(header);
    return m.find() ? m.group(1) : null;
  }

  static String fromPath(URI uri) {
    String path = uri.getRawPath();
    if (path == null || path.isEmpty()) {
      return "";
    }
    String last = path.substring(path.lastIndexOf('/') + 1);
    try {
      return URLDecoder.decode(last.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return last;
    }
  }

  /** Reduces any string to a safe single file name, {@value #FALLBACK} when nothing usable is left. */
  public static String sanitize(String raw) {
    String name = raw;
    // only the last component: "../../etc/passwd" and "C:\\x\\y" both end in a plain name
    name = name.substring(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
    StringBuilder b = new StringBuilder(name.length());
    name.codePoints().forEach(c -> {
      if (c < 0x20 || c == 0x7f || "<>:\"|?*".indexOf(c) >= 0 || Character.getType(c) == Character.FORMAT) {
        b.append('_');
      } else {
        b.appendCodePoint(c);
      }
    });
    name = b.toString().strip();
    // no hidden files, no "." or ".."; Windows drops trailing dots and spaces itself
    name = TRAILING_DOTS.matcher(LEADING_DOTS.matcher(name).replaceFirst("")).replaceFirst("");
    if (RESERVED.matcher(name).matches()) {
      name = "_" + name;
    }
    name = truncate(name);
    return name.isEmpty() ? FALLBACK : name.toLowerCase(Locale.ROOT).endsWith(".part") ? name + "_" : name;
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
    return out + ext;
  }
}
