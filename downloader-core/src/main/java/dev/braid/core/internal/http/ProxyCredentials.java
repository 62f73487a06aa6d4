package dev.braid.core.internal.http;

/**
 * A proxy's user name and password, taken from the user-info of a proxy URL ({@link dev.braid.core.ProxyUrl}). Its
 * {@link #toString()} names neither, so a plan, a route or a record that holds one can be printed.
 */
final class ProxyCredentials {
  private final String user;
  private final String password;

  /** A proxy's user name and password, as {@link dev.braid.core.ProxyUrl} decoded them. */
  ProxyCredentials(String user, String password) {
    this.user = user;
    this.password = password;
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
