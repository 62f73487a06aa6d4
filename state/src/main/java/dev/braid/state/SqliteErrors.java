package dev.braid.state;

import java.sql.SQLException;

/**
 * What the driver's error messages mean to a user: its exceptions carry SQLite's result code
 * only in their text. Stateless; no locking.
 */
final class SqliteErrors {
  private SqliteErrors() {}

  static boolean busy(SQLException e) {
    String m = e.getMessage();
    return m != null && (m.contains("SQLITE_BUSY") || m.contains("SQLITE_LOCKED"));
  }

  static String describe(SQLException e) {
    String m = e.getMessage();
    if (busy(e)) {
      return "it is locked by another process";
    }
    if (m != null && m.contains("SQLITE_NOTADB")) {
      return "the file is not a SQLite database (corrupted or not Braid's)";
    }
    if (m != null && m.contains("SQLITE_CORRUPT")) {
      return "the database is corrupted";
    }
    return m;
  }
}
