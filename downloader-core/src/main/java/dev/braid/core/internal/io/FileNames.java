package dev.braid.core.internal.io;

import dev.braid.core.RemoteName;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.apache.hc.core5.http.HeaderElement;
import org.apache.hc.core5.http.NameValuePair;
import org.apache.hc.core5.http.message.BasicHeaderValueParser;
import org.apache.hc.core5.http.message.BasicNameValuePair;
import org.apache.hc.core5.http.message.ParserCursor;

/**
 * Chooses a local file name from what the server says, and cleans every name that comes from
 * outside (a server's header or URL, each part of a Metalink's path): the one sanitiser of remote
 * names. A remote name is untrusted input: whatever it holds, the result is one plain path
 * component that cannot leave the target folder, is not hidden, holds no control or format
 * character (no bidi override), is not a device name, and fits in a file system's 255 bytes with
 * the {@code .part} suffix of a running download ({@link RemoteName#sanitize}, which a Metalink's
 * names go through too).
 */
public final class FileNames {
  static final String FALLBACK = RemoteName.FALLBACK;

  private FileNames() {}

  /**
   * The name for a download: Content-Disposition's {@code filename*} (RFC 5987), then its
   * {@code filename}, then the last segment of the URL path; always sanitised.
   */
  public static String choose(String contentDisposition, URI uri) {
    String fromHeader = contentDisposition == null ? null : fromDisposition(contentDisposition);
    if (fromHeader != null) {
      String name = RemoteName.sanitize(fromHeader);
      if (!name.equals(FALLBACK)) {
        return name;
      }
    }
    return RemoteName.sanitize(fromPath(uri));
  }

  /**
   * The name a Content-Disposition header gives, or null: RFC 5987's {@code filename*} first, then
   * {@code filename}. httpcore's parser reads the parameters in one pass, without recursion (a
   * regex with an alternation inside a repeat overflowed the stack on a 2,000-character quoted
   * name); a header it cannot read whole, one with an unterminated quote, gives none, so that the
   * URL's name is used, as aria2 does.
   */
  static String fromDisposition(String header) {
    if (unterminatedQuote(header)) {
      return null;
    }
    List<NameValuePair> params = new ArrayList<>();
    for (HeaderElement e : BasicHeaderValueParser.INSTANCE.parseElements(header, new ParserCursor(0, header.length()))) {
      // a bare "filename=x" parses as an element of its own, not as a parameter
      params.add(new BasicNameValuePair(e.getName(), e.getValue()));
      params.addAll(List.of(e.getParameters()));
    }
    String plain = null;
    for (NameValuePair p : params) {
      if (p.getValue() == null) {
        continue;
      }
      if (p.getName().equalsIgnoreCase("filename*")) {
        String decoded = extended(p.getValue());
        if (decoded != null) {
          return decoded;
        }
      } else if (plain == null && p.getName().equalsIgnoreCase("filename")) {
        plain = p.getValue();
      }
    }
    return plain;
  }

  /** RFC 5987's {@code charset'language'percent-encoded}, or null for an unknown charset or broken form. */
  private static String extended(String value) {
    int first = value.indexOf('\'');
    int second = first < 0 ? -1 : value.indexOf('\'', first + 1);
    if (first <= 0 || second < 0) {
      return null;
    }
    try {
      Charset charset = Charset.forName(value.substring(0, first).strip());
      return URLDecoder.decode(value.substring(second + 1).strip().replace("+", "%2B"), charset);
    } catch (IllegalArgumentException e) {
      // an unknown charset or a broken escape: the plain parameter, if any
      return null;
    }
  }

  /** Whether a quoted string is left open (a backslash inside quotes escapes the next character). */
  private static boolean unterminatedQuote(String header) {
    boolean quoted = false;
    for (int i = 0; i < header.length(); i++) {
      char c = header.charAt(i);
      if (quoted && c == '\\') {
        i++;
      } else if (c == '"') {
        quoted = !quoted;
      }
    }
    return quoted;
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
}
