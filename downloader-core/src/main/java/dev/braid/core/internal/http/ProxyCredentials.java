package dev.braid.core.internal.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A proxy's user name and password, taken from the user-info of a proxy URL. Its
 * {@link #toString()} names neither, so a plan, a route or a record that holds one can be printed.
 */
final class ProxyCredentials {
  private final String user;
  private final String password;

  private ProxyCredentials(String user, String password) {
    this.user = user;
    this.password = password;
  }

  /**
   * The credentials of a URL's raw user-info ({@code user:password}, percent-encoded as in a URL;
   * no colon means an empty password, as curl reads it), or null for none.
   *
   * @throws IllegalArgumentException for a malformed percent escape (the message repeats no part of it)
   */
  static ProxyCredentials fromUserInfo(String rawUserInfo) {
    if (rawUserInfo == null || rawUserInfo.isEmpty()) {
      return null;
    }
    // split before decoding: an encoded colon (%3A) belongs to the user name or the password
    int colon = rawUserInfo.indexOf(':');
    return colon < 0 ? new ProxyCredentials(decode(rawUserInfo), "")
        : new ProxyCredentials(decode(rawUserInfo.substring(0, colon)), decode(rawUserInfo.substring(colon + 1)));
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

  String user() {
    return user;
  }

  String password() {
    return password;
  }

  /** Equal credentials: two downloads given the same proxy URL share its connections (see {@link RequestProxy}). */
  @Override
  public boolean equals(Object o) {
    return o instanceof ProxyCredentials c && c.user.equals(user) && c.password.equals(password);
  }

  @Override
  public int hashCode() {
    return user.hashCode() * 31 + password.hashCode();
  }

  @Override
  public String toString() {
    return "credentials(hidden)";
  }
}
