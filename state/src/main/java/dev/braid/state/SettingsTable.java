package dev.braid.state;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.Map;

/**
 * The user's saved settings: the {@code settings} table, key to value.
 *
 * <p>Locking: {@link #settings} is a {@link Connections#read}, {@link #save} a {@link Connections#write}; each
 * takes its lock itself.
 */
final class SettingsTable {
  private final Connections db;

  SettingsTable(Connections db) {
    this.db = db;
  }

  Map<String, String> settings() {
    return db.read("read settings", () -> {
      try (ResultSet rs = db.readStatement("SELECT key, value FROM settings").executeQuery()) {
        Map<String, String> out = new HashMap<>();
        while (rs.next()) {
          out.put(rs.getString(1), rs.getString(2));
        }
        return out;
      }
    });
  }

  void save(String key, String value) {
    String sql = value == null ? "DELETE FROM settings WHERE key = ?" : "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)";
    db.write("save setting " + key, () -> {
      PreparedStatement s = db.statement(sql);
      s.setString(1, key);
      if (value != null) {
        s.setString(2, value);
      }
      s.executeUpdate();
      return null;
    });
  }
}
