package dev.braid.core;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The checks of what a user gives a {@link DownloadRequestBuilder} as text, made when it builds: a URL
 * (http or https, with a host; a password it carries masked in every message) and a header's
 * name and value (no line break that could smuggle in further headers).
 */
final class RequestChecks {
  private static final Pattern USER_INFO = Pattern.compile("://[^/@?#]*@");
  private static final HexFormat UPPER_HEX = HexFormat.of().withUpperCase();

  /** The URL {@code given}, trimmed, or why it is none that Braid downloads. */
  static URI parse(String given) throws InvalidRequestException {
    if (given == null || given.isBlank()) {
      throw new InvalidRequestException("no URL given");
    }
    if (!given.contains("://")) {
      // "example.org/f.iso" would parse with "example.org" as its scheme; say what is missing instead
      throw new InvalidRequestException("malformed URL " + masked(given) + ": it needs http:// or https://");
    }
    URI uri;
    try {
      uri = new URI(given.trim());
    } catch (URISyntaxException e) {
      try {
        // only a URL the strict parse refused: one it took is stored and matched as it was given
        uri = new URI(escapeAfterAuthority(given.trim()));
      } catch (URISyntaxException still) {
        throw new InvalidRequestException("malformed URL " + masked(given) + ": " + e.getReason(), e);
      }
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new InvalidRequestException(scheme.isEmpty()
          ? "malformed URL " + masked(given) + ": it needs http:// or https://"
          : "unsupported scheme " + scheme + ": in " + masked(given) + " (Braid downloads http and https)");
    }
    if (uri.getHost() == null || uri.getHost().isEmpty()) {
      throw new InvalidRequestException("malformed URL " + masked(given) + ": no host");
    }
    return uri;
  }

  /**
   * {@code url} with what a browser, wget or aria2 percent-encodes in a pasted link encoded after
   * its authority: a space, {@code " < > [ ] \ ^ ` { | }}, and a {@code %} that starts no escape
   * ({@code file name.iso} and {@code 100%.zip} are links people copy from pages). Control
   * characters stay, and are refused as malformed.
   */
  private static String escapeAfterAuthority(String url) {
    int authority = url.indexOf("://") + 3;
    int end = authority;
    while (end < url.length() && "/?#".indexOf(url.charAt(end)) < 0) {
      end++;
    }
    StringBuilder b = new StringBuilder(url.length() + 16).append(url, 0, end);
    for (int i = end; i < url.length(); i++) {
      char c = url.charAt(i);
      if (c == '%' && !(i + 2 < url.length() && HexFormat.isHexDigit(url.charAt(i + 1))
          && HexFormat.isHexDigit(url.charAt(i + 2)))) {
        b.append("%25");
      } else if (c == ' ' || "\"<>[]\\^`{|}".indexOf(c) >= 0) {
        b.append('%').append(UPPER_HEX.toHexDigits((byte) c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  /** The URL as error messages show it: a password it may carry is masked. */
  private static String masked(String given) {
    return USER_INFO.matcher(given).replaceFirst("://***@");
  }

  /** {@code uri} without its {@code user:password@}, which must be neither stored nor printed. */
  static URI withoutUserInfo(URI uri) {
    String raw = uri.toString();
    int at = raw.indexOf('@', raw.indexOf("://") + 3);
    return URI.create(raw.substring(0, raw.indexOf("://") + 3) + raw.substring(at + 1));
  }

  static void checkHeader(String name, String value) throws InvalidRequestException {
    if (name.isEmpty() || !name.chars().allMatch(RequestChecks::isTokenChar)) {
      throw new InvalidRequestException("not a valid header name: " + name);
    }
    if (value.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
      // a line break would let a value smuggle in further headers; the value itself is not echoed
      throw new InvalidRequestException("the value of header " + name + " contains a line break");
    }
  }

  private static boolean isTokenChar(int c) {
    return c > 32 && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0;
  }

  private RequestChecks() {}
}
