package dev.braid.state;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.Map;

/**
 * The user's saved settings: the {@code settings} table, key to value.
 *
 * <p>Locking: {@link #settings} is a {@link Store#read}, {@link #save} a {@link Store#write}; each
 * takes its lock itself.
 */
final class SettingsTable {
  private final Store store;

  SettingsTable(Store store) {
    this.store = store;
  }

  Map<String, String> settings() {
    return store.read("read settings", () -> {
      try (ResultSet rs = store.readStatement("SELECT key, value FROM settings").executeQuery()) {
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
    store.write("save setting " + key, () -> {
      PreparedStatement s = store.statement(sql);
      s.setString(1, key);
      if (value != null) {
        s.setString(2, value);
      }
      s.executeUpdate();
      return null;
    });
  }
}
