package dev.braid.state;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** Versioned schema changes, applied in order; the applied count lives in {@code PRAGMA user_version}. */
final class Migrations {
  private static final List<List<String>> STEPS = List.of(
      List.of(
        """
        CREATE TABLE downloads (
          id            INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: ids are shown to users
          url           TEXT    NOT NULL,
          target        TEXT    NOT NULL UNIQUE,
          final_url     TEXT    NOT NULL,
          length        INTEGER NOT NULL,
          etag          TEXT,
          last_modified TEXT,
          ranges        INTEGER NOT NULL,
          status        TEXT    NOT NULL,
          error         TEXT,
          created_ms    INTEGER NOT NULL,
          updated_ms    INTEGER NOT NULL
        )""",
        """
        CREATE TABLE segments (
          download_id INTEGER NOT NULL REFERENCES downloads(id) ON DELETE CASCADE,
          start       INTEGER NOT NULL,
          end         INTEGER NOT NULL,
          done        INTEGER NOT NULL,
          PRIMARY KEY (download_id, start)
        )"""),
      List.of(
        """
        CREATE TABLE hosts (
          host           TEXT    PRIMARY KEY,
          limit_conns    INTEGER NOT NULL,
          good_conns     INTEGER NOT NULL,
          bytes_per_sec  REAL    NOT NULL,
          updated_ms     INTEGER NOT NULL
        )"""));

  private Migrations() {}

  static int latest() {
    return STEPS.size();
  }

  /** Brings the schema to the latest version in one transaction; refuses a newer database. */
  static void apply(Connection c) throws SQLException {
    int version;
    try (Statement s = c.createStatement(); var rs = s.executeQuery("PRAGMA user_version")) {
      version = rs.getInt(1);
    }
    if (version > latest()) {
      throw new SQLException("schema version " + version + " is newer than this Braid understands (" + latest() + ")");
    }
    if (version == latest()) {
      return;
    }
    c.setAutoCommit(false);
    try (Statement s = c.createStatement()) {
      for (int i = version; i < latest(); i++) {
        for (String sql : STEPS.get(i)) {
          s.execute(sql);
        }
      }
      s.execute("PRAGMA user_version = " + latest());
      c.commit();
    } catch (SQLException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(true);
    }
  }
}
