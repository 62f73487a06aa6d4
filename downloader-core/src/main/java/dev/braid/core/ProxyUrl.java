package dev.braid.core;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;

/**
 * A proxy URL read: {@code http://host:port} or {@code socks5://host:port} (also {@code socks5h},
 * {@code socks}), each optionally with percent-encoded {@code user:password@} before the host;
 * {@code host:port} alone is an HTTP proxy, as curl reads it. The one reader of proxy URLs: a
 * request's, a host rule's and the engine's proxy are checked by it when they are set, and the
 * engine connects by what it read. Its messages and {@link #toString()} never show the password.
 *
 * @param socks true for a SOCKS5 proxy, false for an HTTP one
 * @param host the proxy's host
 * @param port the proxy's port (80 or 1080 when the URL gives none)
 * @param user the user name, percent-decoded; null for none
 * @param password the password, percent-decoded (empty when the URL gives a user only); null for none
 */
public record ProxyUrl(boolean socks, String host, int port, String user, String password) {
  private static final String RESERVED_HINT =
      " (percent-encode @ : / # % in the user name and password, e.g. %40 for @)";

  /**
   * Checks its parts: a host, a port in 1-65535, and a user and password given together or not at all.
   *
   * @param socks true for a SOCKS5 proxy
   * @param host the proxy's host
   * @param port its port
   * @param user the user name, or null
   * @param password the password, or null
   */
  public ProxyUrl {
    Objects.requireNonNull(host, "host");
    if (port < 1 || port > 65535 || (user == null) != (password == null)) {
      throw new IllegalArgumentException("a proxy needs a port in 1-65535, and a user and password together");
    }
  }

  /**
   * Reads {@code url}.
   *
   * @param url a proxy URL in one of the forms above
   * @return what it names
   * @throws IllegalArgumentException for a URL that names no usable proxy (the message masks its credentials)
   */
  public static ProxyUrl parse(String url) {
    Objects.requireNonNull(url, "url");
    URI u;
    try {
      u = URI.create(url.contains("://") ? url : "http://" + url);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("malformed proxy URL " + redact(url) + RESERVED_HINT);
    }
    String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
    if (u.getHost() == null) {
      throw new IllegalArgumentException("the proxy URL " + redact(url) + " names no host" + RESERVED_HINT);
    }
    String info = u.getRawUserInfo();
    String user = null;
    String password = null;
    if (info != null && !info.isEmpty()) {
      // split before decoding: an encoded colon (%3A) belongs to the user name or the password
      int colon = info.indexOf(':');
      user = decode(colon < 0 ? info : info.substring(0, colon));
      password = colon < 0 ? "" : decode(info.substring(colon + 1));
    }
    return switch (scheme) {
      case "http" -> new ProxyUrl(false, u.getHost(), u.getPort() < 0 ? 80 : u.getPort(), user, password);
      case "socks5", "socks5h", "socks" -> {
        if (user != null && (utf8Length(user) > 255 || utf8Length(password) > 255)) {
          throw new IllegalArgumentException("a SOCKS5 user name and password are at most 255 bytes each (RFC 1929)");
        }
        yield new ProxyUrl(true, u.getHost(), u.getPort() < 0 ? 1080 : u.getPort(), user, password);
      }
      default -> throw new IllegalArgumentException("unsupported proxy scheme " + scheme + " (http:// or socks5://)");
    };
  }

  /**
   * A download's proxy setting checked ({@link DownloadRequestBuilder#proxy}).
   *
   * @param setting a proxy URL, {@link DownloadRequest#DIRECT} in any case, or null for the engine's
   * @return null, {@link DownloadRequest#DIRECT}, or the URL stripped
   * @throws IllegalArgumentException for a URL that names no usable proxy (its credentials masked)
   */
  public static String checkSetting(String setting) {
    if (setting == null) {
      return null;
    }
    String u = setting.strip();
    if (u.equalsIgnoreCase(DownloadRequest.DIRECT)) {
      return DownloadRequest.DIRECT;
    }
    parse(u);
    return u;
  }

  /** The URL with its user-info, if any, replaced: it is the part that may hold a password. */
  private static String redact(String url) {
    int at = url.lastIndexOf('@');
    if (at < 0) {
      return url;
    }
    int start = url.indexOf("://");
    return url.substring(0, start < 0 ? 0 : start + 3) + "***@" + url.substring(at + 1);
  }

  private static int utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  /** Percent-decoding as in a URI, into UTF-8; unlike URLDecoder, a '+' stays a '+'. */
  private static String decode(String s) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
    int i = 0;
    while (i < s.length()) {
      int percent = s.indexOf('%', i);
      int end = percent < 0 ? s.length() : percent;
      out.writeBytes(s.substring(i, end).getBytes(StandardCharsets.UTF_8));
      if (percent < 0) {
        break;
      }
      int hi = percent + 2 < s.length() ? Character.digit(s.charAt(percent + 1), 16) : -1;
      int lo = hi < 0 ? -1 : Character.digit(s.charAt(percent + 2), 16);
      if (lo < 0) {
        throw new IllegalArgumentException("a malformed percent escape in the proxy's user name or password");
      }
      out.write(hi * 16 + lo);
      i = percent + 3;
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /** {@return the proxy's scheme, host and port, and whether it has credentials, never which} */
  @Override
  public String toString() {
    return (socks ? "socks5://" : "http://") + host + ":" + port + (user == null ? "" : " (with credentials)");
  }
}
