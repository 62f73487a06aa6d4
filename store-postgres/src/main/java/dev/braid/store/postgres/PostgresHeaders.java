package dev.braid.store.postgres;

import dev.braid.store.OptionsText;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

/**
 * The request headers of queue entries (see {@link dev.braid.store.QueueStore#headers}) in the
 * shared {@code queue_headers} table, where every worker of the fleet reads them when it takes
 * an entry over: a {@code Name=value} line per header, as {@link OptionsText} writes options. A
 * row goes with its entry (the foreign key cascades). On the queue role's connection.
 */
final class PostgresHeaders {
  private static final String SELECT = "SELECT headers FROM queue_headers WHERE id = ?";
  /** Nothing for an entry that is gone: the foreign key would refuse the row. */
  private static final String UPSERT = "INSERT INTO queue_headers (id, headers) SELECT id, ? FROM queue WHERE id = ?"
      + " ON CONFLICT (id) DO UPDATE SET headers = excluded.headers";
  private static final String DELETE = "DELETE FROM queue_headers WHERE id = ?";

  private final PostgresStore store;
  private final RoleConnection connection;

  PostgresHeaders(PostgresStore store, RoleConnection connection) {
    this.store = store;
    this.connection = connection;
  }

  Map<String, String> get(long id) {
    return store.call(connection, "read the headers of queue entry " + id, c -> {
      try (PreparedStatement s = c.prepareStatement(SELECT)) {
        s.setLong(1, id);
        try (ResultSet rs = s.executeQuery()) {
          return rs.next() ? OptionsText.decode(rs.getString(1)) : Map.of();
        }
      }
    });
  }

  void set(long id, Map<String, String> headers) {
    store.call(connection, "store the headers of queue entry " + id, c -> {
      write(c, id, headers);
      return null;
    });
  }

  /** Replaces the entry's headers (none: removes them), inside the caller's transaction. */
  static void write(Connection c, long id, Map<String, String> headers) throws SQLException {
    if (headers.isEmpty()) {
      try (PreparedStatement s = c.prepareStatement(DELETE)) {
        s.setLong(1, id);
        s.executeUpdate();
      }
      return;
    }
    try (PreparedStatement s = c.prepareStatement(UPSERT)) {
      s.setString(1, OptionsText.encode(headers));
      s.setLong(2, id);
      s.executeUpdate();
    }
  }
}
