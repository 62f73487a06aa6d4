package dev.braid.store.postgres;

import dev.braid.store.DownloadState;
import dev.braid.store.QueueColumns;
import dev.braid.store.QueueEntry;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/** The queue table's rows as {@link QueueEntry} values, and the parameter binding its statements share. */
final class QueueRows {
  /** The columns of an entry, in the order {@link QueueColumns#entry} reads them. */
  static final String ENTRY = QueueColumns.ENTRY;
  /** The same columns of the queue row aliased {@code q}, for statements that join. */
  static final String Q_ENTRY = "q." + ENTRY.replace(", ", ", q.");

  private QueueRows() {}

  /** Binds {@code args} in order: null as text, {@link Path} and {@link DownloadState} as text. */
  static void bind(PreparedStatement s, Object... args) throws SQLException {
    bindFrom(s, 1, args);
  }

  /** As {@link #bind}, from parameter {@code first} on. */
  static void bindFrom(PreparedStatement s, int first, Object... args) throws SQLException {
    for (int i = 0; i < args.length; i++) {
      Object a = args[i];
      int at = first + i;
      if (a == null) {
        s.setNull(at, Types.VARCHAR);
      } else if (a instanceof Long l) {
        s.setLong(at, l);
      } else if (a instanceof Integer n) {
        s.setInt(at, n);
      } else if (a instanceof Double d) {
        s.setDouble(at, d);
      } else if (a instanceof Boolean b) {
        s.setBoolean(at, b);
      } else {
        s.setString(at, a.toString());
      }
    }
  }

  /** Runs the query and reads every row as an entry. */
  static List<QueueEntry> read(PreparedStatement s) throws SQLException {
    List<QueueEntry> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        out.add(QueueColumns.entry(rs));
      }
    }
    return out;
  }

  /** Runs the query and reads the first column of each row. */
  static List<Long> ids(PreparedStatement s) throws SQLException {
    List<Long> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        out.add(rs.getLong(1));
      }
    }
    return out;
  }
}
