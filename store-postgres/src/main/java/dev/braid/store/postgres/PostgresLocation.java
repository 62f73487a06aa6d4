package dev.braid.store.postgres;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * A store location {@code postgresql://HOST[:PORT]/DB?user=NAME[&password=...][&other=...]} (libpq's
 * URI form; {@code postgres://} too), turned into the JDBC URL and connection properties of the
 * PostgreSQL driver. The password is taken from the location, else from {@code PGPASSWORD}, else
 * the driver reads the pgpass file ({@code PGPASSFILE} or {@code ~/.pgpass}; the driver does this
 * itself, libpq's rules). The password never leaves this class except towards the driver:
 * {@link #toString()} and every message show the location without it.
 */
final class PostgresLocation {
  private static final int DEFAULT_PORT = 5432;
  /** How long a dead worker holds its entries and grants: the bound. */
  static final int DEFAULT_LEASE_SECONDS = 30;
  /** The heartbeat renews twice a second; a lease must outlast several missed ones. */
  private static final int MIN_LEASE_SECONDS = 2;
  private static final int MAX_LEASE_SECONDS = 3600;
  /** Braid's own parameter of a location, not passed to the driver. */
  private static final String LEASE = "lease";

  private final String host;
  private final int port;
  private final String database;
  private final Map<String, String> parameters;
  private final String password;
  private final int leaseSeconds;

  private PostgresLocation(String host, int port, String database, Map<String, String> parameters, String password,
      int leaseSeconds) {
    this.host = host;
    this.port = port;
    this.database = database;
    this.parameters = parameters;
    this.password = password;
    this.leaseSeconds = leaseSeconds;
  }

  /** Whether {@code location} names a PostgreSQL store (by its scheme) rather than a file. */
  static boolean accepts(String location) {
    return location.startsWith("postgresql://") || location.startsWith("postgres://");
  }

  /**
   * Parses a location; {@code environmentPassword} is {@code PGPASSWORD} (or null), passed in so
   * tests need not change the environment.
   *
   * @throws IllegalArgumentException naming what is wrong, never quoting the password
   */
  static PostgresLocation parse(String location, String environmentPassword) {
    if (!accepts(location)) {
      throw new IllegalArgumentException("not a PostgreSQL location (postgresql://HOST:PORT/DB?user=NAME)");
    }
    URI uri;
    try {
      uri = new URI(location);
    } catch (URISyntaxException e) {
      // the message would quote the location, password and all
      throw new IllegalArgumentException("malformed PostgreSQL location at character " + e.getIndex()
          + " (expected postgresql://HOST:PORT/DB?user=NAME)");
    }
    if (uri.getHost() == null || uri.getHost().isEmpty()) {
      throw new IllegalArgumentException("a PostgreSQL location needs a host: postgresql://HOST:PORT/DB?user=NAME");
    }
    String path = uri.getRawPath() == null ? "" : uri.getRawPath();
    String database = decode(path.startsWith("/") ? path.substring(1) : path);
    if (database.isEmpty() || database.contains("/")) {
      throw new IllegalArgumentException("a PostgreSQL location names one database: postgresql://HOST:PORT/DB?user=NAME");
    }
    Map<String, String> parameters = new LinkedHashMap<>();
    String userInfoPassword = null;
    if (uri.getRawUserInfo() != null) {
      String[] parts = uri.getRawUserInfo().split(":", 2);
      parameters.put("user", decode(parts[0]));
      if (parts.length == 2) {
        userInfoPassword = decode(parts[1]);
      }
    }
    if (uri.getRawQuery() != null) {
      for (String pair : uri.getRawQuery().split("&")) {
        if (pair.isEmpty()) {
          continue;
        }
        int eq = pair.indexOf('=');
        String key = decode(eq < 0 ? pair : pair.substring(0, eq));
        String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
        parameters.put(key, value);
      }
    }
    String password = parameters.remove("password");
    if (password == null) {
      password = userInfoPassword;
    }
    if (password == null && environmentPassword != null && !environmentPassword.isEmpty()) {
      password = environmentPassword;
    }
    if (!parameters.containsKey("user")) {
      throw new IllegalArgumentException("a PostgreSQL location needs a user: postgresql://HOST:PORT/DB?user=NAME");
    }
    int lease = leaseSeconds(parameters.remove(LEASE));
    int port = uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort();
    return new PostgresLocation(uri.getHost(), port, database, Collections.unmodifiableMap(parameters), password, lease);
  }

  private static int leaseSeconds(String value) {
    if (value == null) {
      return DEFAULT_LEASE_SECONDS;
    }
    try {
      int s = Integer.parseInt(value);
      if (s >= MIN_LEASE_SECONDS && s <= MAX_LEASE_SECONDS) {
        return s;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("lease=" + value + " in a PostgreSQL location: seconds from " + MIN_LEASE_SECONDS
        + " to " + MAX_LEASE_SECONDS);
  }

  private static String decode(String s) {
    return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  /** The driver's URL: host, port and database only; everything else travels in {@link #properties()}. */
  String jdbcUrl() {
    String h = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    return "jdbc:postgresql://" + h + ":" + port + "/" + database;
  }

  /** The connection properties: the location's parameters, the password if one was found, the application's name. */
  Properties properties() {
    Properties p = new Properties();
    p.setProperty("ApplicationName", "braid");
    parameters.forEach(p::setProperty);
    if (password != null) {
      p.setProperty("password", password);
    }
    return p;
  }

  /**
   * How long a claim or a connection grant lasts without a renewal: the {@code lease} parameter
   * (seconds), else {@value #DEFAULT_LEASE_SECONDS} s. A worker that dies holds its entries that long.
   */
  long leaseMillis() {
    return leaseSeconds * 1000L;
  }

  /** The user the store logs in as. */
  String user() {
    return parameters.get("user");
  }

  /** The location as a user may see it: without the password. */
  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("postgresql://").append(host).append(':').append(port).append('/').append(database);
    char sep = '?';
    if (leaseSeconds != DEFAULT_LEASE_SECONDS) {
      s.append(sep).append(LEASE).append('=').append(leaseSeconds);
      sep = '&';
    }
    for (Map.Entry<String, String> e : parameters.entrySet()) {
      s.append(sep).append(e.getKey()).append('=').append(e.getValue());
      sep = '&';
    }
    return s.toString();
  }
}
