package dev.braid.store.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.postgresql.Driver;

/**
 * The one database connection of one role of the store (the queue and its leases, the resume
 * records, the host grants). Each role's calls take turns on its connection, as the SQLite
 * store's do on its one: a transaction is never interleaved with another on the same connection,
 * and one role never waits for another's (a heartbeat does not queue behind a checkpoint, a
 * connection grant that waits for a free slot does not hold up the heartbeat). A pool would buy
 * nothing more: the engine's calls of one role are short and already serialised by their callers.
 * A connection that broke (the server restarted, the network dropped) is opened afresh by the next
 * call; the failed call reports its error and is not repeated, since a write may have committed.
 */
final class RoleConnection implements AutoCloseable {
  /** A unit of work inside one transaction. */
  @FunctionalInterface
  interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  private final PostgresLocation location;
  private final String role;
  private Connection connection;
  private boolean closed;

  RoleConnection(PostgresLocation location, String role) {
    this.location = location;
    this.role = role;
  }

  /** Runs {@code work} in a transaction of its own and commits it; rolls back on any failure. */
  synchronized <T> T transaction(Work<T> work) throws SQLException {
    Connection c = open();
    boolean done = false;
    try {
      T result = work.run(c);
      c.commit();
      done = true;
      return result;
    } finally {
      if (!done) {
        rollbackOrDrop(c);
      }
    }
  }

  private Connection open() throws SQLException {
    if (closed) {
      throw new SQLException("the store is closed");
    }
    if (connection == null) {
      connection = connect(location);
      connection.setAutoCommit(false);
    }
    return connection;
  }

  /** A new connection to the location, without the driver lookup of {@link DriverManager}. */
  static Connection connect(PostgresLocation location) throws SQLException {
    Connection c = DriverHolder.DRIVER.connect(location.jdbcUrl(), location.properties());
    if (c == null) {
      throw new SQLException("the PostgreSQL driver did not accept " + location);
    }
    return c;
  }

  /** Loads the driver's classes now (see {@link dev.braid.store.StoreProvider#warmUp}). */
  static void loadDriver() {
    DriverHolder.DRIVER.getClass();
  }

  /** The driver, created at first use: without {@link DriverManager}'s scan of every driver on the class path. */
  private static final class DriverHolder {
    static final Driver DRIVER = new Driver();
  }

  private void rollbackOrDrop(Connection c) {
    try {
      c.rollback();
      if (!c.isValid(2)) {
        drop();
      }
    } catch (SQLException e) {
      drop();
    }
  }

  private void drop() {
    try {
      connection.close();
    } catch (SQLException e) {
      // broken already: the next call opens another
    }
    connection = null;
  }

  /** What this connection is for, in messages. */
  String role() {
    return role;
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (connection != null) {
      drop();
    }
  }
}
