package dev.braid.state;

import dev.braid.store.OptionsText;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

/**
 * The request headers of queue entries (see {@link dev.braid.store.QueueStore#headers}), in the
 * {@code queue_headers} table: a {@code Name=value} line per header, as {@link OptionsText}
 * writes options. A row goes with its entry (the foreign key cascades).
 *
 * <p>Locking: {@link #get} and {@link #set} are a read and a write of their own; {@link #insert}
 * runs inside a {@link Connections#write}.
 */
final class QueueHeaders {
  private static final String SELECT = "SELECT headers FROM queue_headers WHERE id = ?";
  /** Nothing for an entry that is gone: the foreign key would refuse the row. */
  private static final String UPSERT = "INSERT INTO queue_headers (id, headers) SELECT id, ?2 FROM queue WHERE id = ?1"
      + " ON CONFLICT (id) DO UPDATE SET headers = excluded.headers";
  private static final String DELETE = "DELETE FROM queue_headers WHERE id = ?";

  private final Connections db;

  QueueHeaders(Connections db) {
    this.db = db;
  }

  Map<String, String> get(long id) {
    return db.read("read the headers of queue entry " + id, () -> {
      PreparedStatement s = db.readStatement(SELECT);
      s.setLong(1, id);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? OptionsText.decode(rs.getString(1)) : Map.of();
      }
    });
  }

  void set(long id, Map<String, String> headers) {
    db.write("store the headers of queue entry " + id, () -> {
      insert(id, headers);
      return null;
    });
  }

  /** Replaces the entry's headers (none: removes them), inside a write. */
  void insert(long id, Map<String, String> headers) throws SQLException {
    if (headers.isEmpty()) {
      PreparedStatement s = db.statement(DELETE);
      s.setLong(1, id);
      s.executeUpdate();
      return;
    }
    PreparedStatement s = db.statement(UPSERT);
    s.setLong(1, id);
    s.setString(2, OptionsText.encode(headers));
    s.executeUpdate();
  }
}
