package dev.braid.store.postgres;

import dev.braid.store.HostGrants;
import dev.braid.store.HostKnowledge;
import dev.braid.store.QueueStore;
import dev.braid.store.ResumeRecords;
import dev.braid.store.StateStore;
import dev.braid.store.StoreException;
import dev.braid.store.StoreLocation;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * The store on a PostgreSQL server, shared by a fleet of workers: the queue with leased claims
 * ({@link PostgresQueue}), the resume records, host memory and the per-host connection grants.
 * Three connections, one per role ({@link RoleConnection}): the queue's (claims, heartbeats, the
 * change feed, the ends of runs), the records' (checkpoints, host memory, settings) and the
 * grants'. Thread-safe: each role's calls take turns on its connection.
 */
public final class PostgresStore implements StateStore {
  private final PostgresLocation location;
  private final RoleConnection queueConnection;
  private final RoleConnection recordsConnection;
  private final RoleConnection grantsConnection;
  private final PostgresQueue queue;
  private final PostgresRecords records;
  private final PostgresHosts hosts;
  private final PostgresGrants grants;

  private PostgresStore(PostgresLocation location) {
    this.location = location;
    this.queueConnection = new RoleConnection(location, "queue");
    this.recordsConnection = new RoleConnection(location, "records");
    this.grantsConnection = new RoleConnection(location, "grants");
    this.queue = new PostgresQueue(this, queueConnection, location.leaseMillis());
    this.records = new PostgresRecords(this, recordsConnection);
    this.hosts = new PostgresHosts(this, recordsConnection);
    this.grants = new PostgresGrants(this, grantsConnection, location.leaseMillis());
  }

  /**
   * Opens the store at {@code location} ({@code postgresql://HOST:PORT/DB?user=NAME}), creating
   * or updating its tables; the password from the location, {@code PGPASSWORD} or the pgpass file.
   *
   * @throws StoreException when the location is malformed, the server cannot be reached or it
   *     refuses the login; the message never quotes the password
   */
  public static PostgresStore open(String location) {
    PostgresLocation parsed;
    try {
      parsed = PostgresLocation.parse(location, System.getenv("PGPASSWORD"));
    } catch (IllegalArgumentException e) {
      throw new StoreException("cannot open " + StoreLocation.redact(location) + ": " + e.getMessage(), e);
    }
    PostgresStore store = new PostgresStore(parsed);
    try {
      store.call(store.recordsConnection, "open the store", c -> {
        Schema.apply(c);
        return null;
      });
    } catch (StoreException e) {
      store.close();
      throw e;
    }
    return store;
  }

  @Override
  public QueueStore queue() {
    return queue;
  }

  @Override
  public ResumeRecords records() {
    return records;
  }

  @Override
  public HostKnowledge hosts() {
    return hosts;
  }

  @Override
  public HostGrants grants() {
    return grants;
  }

  @Override
  public Map<String, String> settings() {
    return call(recordsConnection, "read settings", c -> {
      try (PreparedStatement s = c.prepareStatement("SELECT key, value FROM settings"); ResultSet rs = s.executeQuery()) {
        Map<String, String> out = new HashMap<>();
        while (rs.next()) {
          out.put(rs.getString(1), rs.getString(2));
        }
        return out;
      }
    });
  }

  @Override
  public void saveSetting(String key, String value) {
    call(recordsConnection, "save setting " + key, c -> {
      try (PreparedStatement s = c.prepareStatement(value == null ? "DELETE FROM settings WHERE key = ?"
          : "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value")) {
        s.setString(1, key);
        if (value != null) {
          s.setString(2, value);
        }
        s.executeUpdate();
      }
      return null;
    });
  }

  @Override
  public String location() {
    return location.toString();
  }

  @Override
  public String toString() {
    return "PostgreSQL store " + location;
  }

  /** Runs {@code work} in one transaction on {@code role}'s connection; a failure names the store and what failed. */
  <T> T call(RoleConnection role, String what, RoleConnection.Work<T> work) {
    try {
      return role.transaction(work);
    } catch (SQLException e) {
      throw new StoreException("cannot " + what + " in " + location + ": " + describe(e), e);
    }
  }

  private static String describe(SQLException e) {
    String m = e.getMessage();
    return m == null ? e.getClass().getSimpleName() : m;
  }

  @Override
  public void close() {
    queueConnection.close();
    recordsConnection.close();
    grantsConnection.close();
  }
}
