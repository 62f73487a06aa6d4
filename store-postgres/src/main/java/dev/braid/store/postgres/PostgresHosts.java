package dev.braid.store.postgres;

import dev.braid.store.HostKnowledge;
import dev.braid.store.HostMemory;
import dev.braid.store.ProtocolMemory;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Host memory shared by the fleet: what one worker learned about a host (the connections it
 * tolerated, the speed reached, the HTTP version that served it best) the next download there
 * starts from, on whichever worker it runs. Last writer wins, as in the SQLite store.
 */
final class PostgresHosts implements HostKnowledge {
  private final PostgresStore store;
  private final RoleConnection connection;

  PostgresHosts(PostgresStore store, RoleConnection connection) {
    this.store = store;
    this.connection = connection;
  }

  @Override
  public Optional<HostMemory> host(String host) {
    return store.call(connection, "read host " + host, c -> {
      try (PreparedStatement s = c.prepareStatement(
          "SELECT limit_conns, good_conns, bytes_per_sec, updated_ms FROM hosts WHERE host = ?")) {
        s.setString(1, host);
        try (ResultSet rs = s.executeQuery()) {
          return rs.next()
              ? Optional.of(new HostMemory(host, rs.getInt(1), rs.getInt(2), rs.getDouble(3), rs.getLong(4)))
              : Optional.<HostMemory>empty();
        }
      }
    });
  }

  @Override
  public List<HostMemory> recent(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("a list of hosts holds at least one, not " + limit);
    }
    return store.call(connection, "read the hosts", c -> {
      try (PreparedStatement s = c.prepareStatement("SELECT host, limit_conns, good_conns, bytes_per_sec, updated_ms"
          + " FROM hosts ORDER BY updated_ms DESC, host LIMIT ?")) {
        s.setInt(1, limit);
        List<HostMemory> all = new ArrayList<>();
        try (ResultSet rs = s.executeQuery()) {
          while (rs.next()) {
            all.add(new HostMemory(rs.getString(1), rs.getInt(2), rs.getInt(3), rs.getDouble(4), rs.getLong(5)));
          }
        }
        return all;
      }
    });
  }

  @Override
  public void remember(HostMemory m) {
    store.call(connection, "record host " + m.host(), c -> {
      try (PreparedStatement s = c.prepareStatement("INSERT INTO hosts (host, limit_conns, good_conns, bytes_per_sec,"
          + " updated_ms) VALUES (?, ?, ?, ?, ?) ON CONFLICT (host) DO UPDATE SET limit_conns = EXCLUDED.limit_conns,"
          + " good_conns = EXCLUDED.good_conns, bytes_per_sec = EXCLUDED.bytes_per_sec, updated_ms = EXCLUDED.updated_ms")) {
        QueueRows.bind(s, m.host(), m.limit(), m.connections(), m.bytesPerSecond(), m.updatedMillis());
        s.executeUpdate();
      }
      return null;
    });
  }

  @Override
  public List<ProtocolMemory> protocols(String host) {
    return store.call(connection, "read the protocols of host " + host, c -> {
      try (PreparedStatement s = c.prepareStatement(
          "SELECT protocol, offered, bytes_per_sec, updated_ms FROM host_protocols WHERE host = ? ORDER BY protocol")) {
        s.setString(1, host);
        List<ProtocolMemory> all = new ArrayList<>();
        try (ResultSet rs = s.executeQuery()) {
          while (rs.next()) {
            all.add(new ProtocolMemory(host, rs.getString(1), rs.getBoolean(2), rs.getDouble(3), rs.getLong(4)));
          }
        }
        return all;
      }
    });
  }

  @Override
  public void remember(ProtocolMemory m) {
    store.call(connection, "record protocol " + m.protocol() + " of host " + m.host(), c -> {
      try (PreparedStatement s = c.prepareStatement("INSERT INTO host_protocols (host, protocol, offered, bytes_per_sec,"
          + " updated_ms) VALUES (?, ?, ?, ?, ?) ON CONFLICT (host, protocol) DO UPDATE SET offered = EXCLUDED.offered,"
          + " bytes_per_sec = EXCLUDED.bytes_per_sec, updated_ms = EXCLUDED.updated_ms")) {
        QueueRows.bind(s, m.host(), m.protocol(), m.offered(), m.bytesPerSecond(), m.updatedMillis());
        s.executeUpdate();
      }
      return null;
    });
  }
}
