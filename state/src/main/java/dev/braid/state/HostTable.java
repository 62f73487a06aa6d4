package dev.braid.state;

import dev.braid.store.HostMemory;
import dev.braid.store.ProtocolMemory;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What downloads learned about hosts: the {@code hosts} and {@code host_protocols} tables.
 *
 * <p>Locking: the reads are {@link Connections#read}s, the writes {@link Connections#write}s; each takes its
 * lock itself.
 */
final class HostTable {
  private final Connections db;

  HostTable(Connections db) {
    this.db = db;
  }

  Optional<HostMemory> host(String host) {
    return db.read("read host " + host, () -> {
      PreparedStatement s = db.readStatement(
          "SELECT limit_conns, good_conns, bytes_per_sec, updated_ms FROM hosts WHERE host = ?");
      s.setString(1, host);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next()
            ? Optional.of(new HostMemory(host, rs.getInt(1), rs.getInt(2), rs.getDouble(3), rs.getLong(4)))
            : Optional.<HostMemory>empty();
      }
    });
  }

  List<HostMemory> recent(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("a list of hosts holds at least one, not " + limit);
    }
    return db.read("read the hosts", () -> {
      PreparedStatement s = db.readStatement("SELECT host, limit_conns, good_conns, bytes_per_sec, updated_ms"
          + " FROM hosts ORDER BY updated_ms DESC, host LIMIT ?");
      s.setInt(1, limit);
      List<HostMemory> all = new ArrayList<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          all.add(new HostMemory(rs.getString(1), rs.getInt(2), rs.getInt(3), rs.getDouble(4), rs.getLong(5)));
        }
      }
      return all;
    });
  }

  void remember(HostMemory m) {
    db.write("record host " + m.host(), () -> {
      PreparedStatement s = db.statement(
          "INSERT OR REPLACE INTO hosts (host, limit_conns, good_conns, bytes_per_sec, updated_ms) VALUES (?, ?, ?, ?, ?)");
      s.setString(1, m.host());
      s.setInt(2, m.limit());
      s.setInt(3, m.connections());
      s.setDouble(4, m.bytesPerSecond());
      s.setLong(5, m.updatedMillis());
      s.executeUpdate();
      return null;
    });
  }

  List<ProtocolMemory> protocols(String host) {
    return db.read("read the protocols of host " + host, () -> {
      PreparedStatement s = db.readStatement(
          "SELECT protocol, offered, bytes_per_sec, updated_ms FROM host_protocols WHERE host = ? ORDER BY protocol");
      s.setString(1, host);
      List<ProtocolMemory> all = new ArrayList<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          all.add(new ProtocolMemory(host, rs.getString(1), rs.getInt(2) != 0, rs.getDouble(3), rs.getLong(4)));
        }
      }
      return all;
    });
  }

  void remember(ProtocolMemory m) {
    db.write("record protocol " + m.protocol() + " of host " + m.host(), () -> {
      PreparedStatement s = db.statement("INSERT OR REPLACE INTO host_protocols"
          + " (host, protocol, offered, bytes_per_sec, updated_ms) VALUES (?, ?, ?, ?, ?)");
      s.setString(1, m.host());
      s.setString(2, m.protocol());
      s.setInt(3, m.offered() ? 1 : 0);
      s.setDouble(4, m.bytesPerSecond());
      s.setLong(5, m.updatedMillis());
      s.executeUpdate();
      return null;
    });
  }
}
