package dev.braid.store;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * A queue entry's columns in an SQL store, the same in every one: the list a statement selects
 * and the reading of one row of it into a {@link QueueEntry}, by position (a driver otherwise
 * looks each name up in every result set anew).
 */
public final class QueueColumns {
  /** The columns of an entry, in the order {@link #entry} reads them. */
  public static final String ENTRY =
      "id, urls, file, directory, options, priority, state, error, error_kind, target, length, done, owner, heartbeat_ms,"
      + " retry_at, retry_count, retry_since";

  private QueueColumns() {}

  /**
   * {@return the entry of {@code rs}'s current row, selected as {@link #ENTRY}}
   *
   * @param rs a result set on a row selected as {@link #ENTRY}
   * @throws SQLException when the driver cannot read the row
   */
  public static QueueEntry entry(ResultSet rs) throws SQLException {
    String file = rs.getString(3);
    String target = rs.getString(10);
    return new QueueEntry(rs.getLong(1), Arrays.asList(rs.getString(2).split("\n")),
        file == null ? null : Path.of(file), Path.of(rs.getString(4)), OptionsText.decode(rs.getString(5)), rs.getInt(6),
        DownloadState.valueOf(rs.getString(7)), rs.getString(8), rs.getString(9),
        target == null ? null : Path.of(target), rs.getLong(11), rs.getLong(12), rs.getString(13), rs.getLong(14),
        new EntryRetry(rs.getLong(15), rs.getInt(16), rs.getLong(17)));
  }
}
