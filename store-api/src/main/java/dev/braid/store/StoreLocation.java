package dev.braid.store;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.regex.Pattern;

/**
 * Opens the store a location names, through the {@link StoreProvider}s on the class path, and
 * shows locations safely: a URL's password never reaches a message or a log.
 */
public final class StoreLocation {
  private StoreLocation() {}

  /**
   * The patterns of {@link #redact}, compiled on its first use: a command relayed to a daemon asks
   * {@link #isUrl} at start, and the JVM's first regex costs it ~10 ms.
   */
  private static final class Passwords {
    /**
     * The password of a URL's user info ({@code user:password@}): up to the authority's last
     * {@code @}, so that an unencoded {@code @} in a password is hidden too (a host hidden with it
     * costs less than a password shown).
     */
    static final Pattern USER_INFO = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*://[^/@:?#]*):[^/]*@");
    /** A password in a query ({@code ?password=...}, {@code &password=...}), whatever its case. */
    static final Pattern QUERY = Pattern.compile("([?&](?i:password)=)[^&#]*");
  }

  /**
   * Opens the store at {@code location} with the first provider that accepts it.
   *
   * @param location a file path or a store URL
   * @return the open store
   * @throws IllegalArgumentException when no provider on the class path accepts it
   * @throws StoreException when the provider cannot open it
   */
  public static StateStore open(String location) {
    return providerOf(location).open(location);
  }

  /**
   * Checks that a provider on the class path opens {@code location}, without opening it.
   *
   * @param location a file path or a store URL
   * @throws IllegalArgumentException when none does; the message shows the location redacted
   */
  public static void check(String location) {
    providerOf(location);
  }

  /**
   * The once-per-process set-up of the provider of {@code location} ({@link StoreProvider#warmUp}),
   * now.
   *
   * @param location a file path or a store URL
   * @throws IllegalArgumentException when no provider on the class path accepts it
   */
  public static void warmUp(String location) {
    providerOf(location).warmUp();
  }

  private static StoreProvider providerOf(String location) {
    if (location == null || location.isBlank()) {
      throw new IllegalArgumentException("a store location cannot be empty");
    }
    for (StoreProvider p : Providers.ALL) {
      if (p.accepts(location)) {
        return p;
      }
    }
    throw new IllegalArgumentException("no store on the class path opens " + redact(location)
        + (isUrl(location) ? " (is the store module for its scheme, such as braid-store-postgres, missing?)" : ""));
  }

  /** The providers, looked up once: a look-up reads the class path's service files. */
  private static final class Providers {
    static final List<StoreProvider> ALL = load();

    private static List<StoreProvider> load() {
      List<StoreProvider> all = new ArrayList<>();
      ServiceLoader.load(StoreProvider.class, StoreLocation.class.getClassLoader()).forEach(all::add);
      return List.copyOf(all);
    }
  }

  /**
   * {@return whether {@code location} is a URL ({@code scheme://...}) rather than a file path}
   *
   * @param location a store location
   */
  public static boolean isUrl(String location) {
    // scheme "://" (RFC 3986: a letter, then letters, digits, + - .)
    int colon = location.indexOf("://");
    if (colon < 1 || !isAsciiLetter(location.charAt(0))) {
      return false;
    }
    for (int i = 1; i < colon; i++) {
      char c = location.charAt(i);
      if (!isAsciiLetter(c) && !(c >= '0' && c <= '9') && c != '+' && c != '-' && c != '.') {
        return false;
      }
    }
    return true;
  }

  private static boolean isAsciiLetter(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
  }

  /**
   * {@code location} fit to show: a URL with its password (in the user info, or a
   * {@code password} query parameter) replaced by {@code ***}; a path as it is.
   *
   * @param location a store location, or null
   * @return the location without its password
   */
  public static String redact(String location) {
    if (location == null || !isUrl(location)) {
      return location;
    }
    String s = Passwords.USER_INFO.matcher(location).replaceFirst("$1:***@");
    return Passwords.QUERY.matcher(s).replaceAll("$1***");
  }
}
