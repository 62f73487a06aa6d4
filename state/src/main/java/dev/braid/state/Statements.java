package dev.braid.state;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.HashMap;
import java.util.Map;

/**
 * One of the store's connections (the writer or the reader) and the statements prepared on it,
 * each compiled once and reused, with the helpers that bind their parameters and read back an
 * insert's id.
 *
 * <p>Locking: none of its own; every caller holds its connection's lock (the monitor of {@link Connections} for
 * the writer, its read lock for the reader).
 */
final class Statements {
  private final Connection connection;
  // SQL texts are constants of this package, so the map stays small: each is compiled once per
  // connection instead of on every call (compiling was a third of the store's time in a batch)
  private final Map<String, PreparedStatement> statements = new HashMap<>();

  Statements(Connection connection) {
    this.connection = connection;
  }

  /**
   * The prepared statement for {@code sql}, compiled on first use and reused. Callers hold the
   * connection's lock, set every parameter, close the result sets they open and never the statement.
   */
  PreparedStatement get(String sql) throws SQLException {
    PreparedStatement s = statements.get(sql);
    if (s == null) {
      s = connection.prepareStatement(sql);
      statements.put(sql, s);
    }
    // a batch that failed half-way must not leak into the next use
    s.clearBatch();
    return s;
  }

  /** Closes the connection, and with it every statement. */
  void close() {
    closeQuietly(connection);
  }

  /** Runs an INSERT ... RETURNING id and returns the id. */
  static long insertedId(PreparedStatement s) throws SQLException {
    try (ResultSet rs = s.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }

  static void setNullable(PreparedStatement s, int index, String value) throws SQLException {
    if (value == null) {
      s.setNull(index, Types.VARCHAR);
    } else {
      s.setString(index, value);
    }
  }

  static void bind(PreparedStatement s, Object... args) throws SQLException {
    for (int i = 0; i < args.length; i++) {
      s.setObject(i + 1, args[i]);
    }
  }

  static void closeQuietly(Connection c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (SQLException ignored) {
      // closing is best effort: the data was committed or rolled back before
    }
  }
}
