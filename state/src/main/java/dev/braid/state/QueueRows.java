package dev.braid.state;

import dev.braid.store.QueueColumns;
import dev.braid.store.QueueEntry;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code queue} table's rows as entries, and its one-statement reads and writes: what the
 * queue's reads, feed, leases and submissions share.
 *
 * <p>Locking: {@link #ids}, {@link #read} and {@link #write} take their locks themselves;
 * {@link #readInside} runs inside a {@link Connections#read}, {@link #select} and {@link #update} inside
 * a {@link Connections#write}.
 */
final class QueueRows {
  /** The columns of an entry, in the order {@link QueueColumns#entry} reads them. */
  static final String ENTRY = QueueColumns.ENTRY;
  static final String BY_ID = "SELECT " + ENTRY + " FROM queue WHERE id = ?";

  private final Connections db;

  QueueRows(Connections db) {
    this.db = db;
  }

  /** The first column of each row of {@code sql}, a read of its own: ids, read from an index alone. */
  List<Long> ids(String sql, Object... args) {
    return db.read("read the queue", () -> {
      PreparedStatement s = db.readStatement(sql);
      Statements.bind(s, args);
      List<Long> out = new ArrayList<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getLong(1));
        }
      }
      return out;
    });
  }

  /** The entries {@code sql} selects, a read of its own (see {@link Connections#read}). */
  List<QueueEntry> read(String sql, Object... args) {
    return db.read("read the queue", () -> readInside(sql, args));
  }

  /** The entries {@code sql} selects, on the reader, inside a {@link Connections#read}. */
  List<QueueEntry> readInside(String sql, Object... args) throws SQLException {
    PreparedStatement s = db.readStatement(sql);
    Statements.bind(s, args);
    return select(s);
  }

  /** One statement as a write of its own (see {@link Connections#write}). */
  void write(String sql, Object... args) {
    db.write("update the queue", () -> {
      update(sql, args);
      return null;
    });
  }

  /** One statement, inside a write. */
  void update(String sql, Object... args) throws SQLException {
    PreparedStatement s = db.statement(sql);
    Statements.bind(s, args);
    s.executeUpdate();
  }

  /** The entries {@code sql} selects, on the writer, inside a write (it sees the write's own changes). */
  List<QueueEntry> select(String sql, Object... args) {
    try {
      PreparedStatement s = db.statement(sql);
      Statements.bind(s, args);
      return select(s);
    } catch (SQLException e) {
      throw db.failure("read the queue", e);
    }
  }

  /** The entries a bound statement returns (a SELECT or a write's RETURNING, of the {@link #ENTRY} columns). */
  static List<QueueEntry> select(PreparedStatement s) throws SQLException {
    List<QueueEntry> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        out.add(QueueColumns.entry(rs));
      }
    }
    return out;
  }
}
