package dev.braid.store.postgres;

import dev.braid.store.HostGrant;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL of per-host connection grants shared by a fleet: each worker's row says how many
 * connections to a host it holds, until when (server clock). A grant is decided under a lock per
 * host (a transaction-scoped advisory lock, so it ends with the transaction), against the sum of
 * the other workers' live rows: the cap holds across workers however many ask at once. A dead
 * worker stops renewing, its row lapses, and its connections count for nobody after the lease.
 */
final class HostGrantLeases {
  private static final String LOCK_HOST = "SELECT pg_advisory_xact_lock(hashtextextended('braid host ' || ?, 0))";
  private static final String OTHERS = """
      SELECT coalesce(sum(connections), 0) FROM host_grants
       WHERE host = ? AND owner <> ? AND lease_until > clock_timestamp()""";
  // a lapsed row of one's own counts as nothing: the others may have used those connections since
  private static final String MINE = """
      SELECT CASE WHEN lease_until > clock_timestamp() THEN connections ELSE 0 END
        FROM host_grants WHERE host = ? AND owner = ?""";
  private static final String SET_MINE = """
      INSERT INTO host_grants (host, owner, connections, lease_until)
      VALUES (?, ?, ?, clock_timestamp() + ? * interval '1 millisecond')
      ON CONFLICT (host, owner) DO UPDATE SET connections = EXCLUDED.connections, lease_until = EXCLUDED.lease_until""";
  private static final String RELEASE = """
      UPDATE host_grants SET connections = greatest(connections - ?, 0)
       WHERE host = ? AND owner = ? AND lease_until > clock_timestamp()""";
  private static final String RENEW = """
      UPDATE host_grants SET lease_until = clock_timestamp() + ? * interval '1 millisecond'
       WHERE owner = ? AND lease_until > clock_timestamp()""";
  /** Rows of workers long gone, so the table does not grow with every restart. */
  private static final String FORGET_LAPSED = """
      DELETE FROM host_grants WHERE host = ? AND lease_until < clock_timestamp() - interval '10 minutes'""";
  private static final String HELD = """
      SELECT coalesce(sum(connections), 0) FROM host_grants WHERE host = ? AND lease_until > clock_timestamp()""";

  private static final String ALL = """
      SELECT host, owner, connections FROM host_grants
       WHERE connections > 0 AND lease_until > clock_timestamp() ORDER BY host, owner""";

  private HostGrantLeases() {}

  /**
   * Grants {@code owner} up to {@code wanted} more connections to {@code host}, as many as keep
   * every live worker's together within {@code cap}; returns how many (0 when the host is full).
   */
  static int acquire(Connection c, String host, String owner, int wanted, int cap, long leaseMillis)
      throws SQLException {
    try (PreparedStatement lock = c.prepareStatement(LOCK_HOST)) {
      lock.setString(1, host);
      lock.execute();
    }
    int others = count(c, OTHERS, host, owner);
    int mine = count(c, MINE, host, owner);
    int granted = Math.max(0, Math.min(wanted, cap - others - mine));
    try (PreparedStatement set = c.prepareStatement(SET_MINE)) {
      set.setString(1, host);
      set.setString(2, owner);
      set.setInt(3, mine + granted);
      set.setLong(4, leaseMillis);
      set.executeUpdate();
    }
    try (PreparedStatement forget = c.prepareStatement(FORGET_LAPSED)) {
      forget.setString(1, host);
      forget.executeUpdate();
    }
    return granted;
  }

  /** Gives back {@code count} of {@code owner}'s connections to {@code host}. */
  static void release(Connection c, String host, String owner, int count) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(RELEASE)) {
      s.setInt(1, count);
      s.setString(2, host);
      s.setString(3, owner);
      s.executeUpdate();
    }
  }

  /** Pushes on the lease of every live grant of {@code owner} (its heartbeat); returns how many rows. */
  static int renew(Connection c, String owner, long leaseMillis) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(RENEW)) {
      s.setLong(1, leaseMillis);
      s.setString(2, owner);
      return s.executeUpdate();
    }
  }

  /** The connections to {@code host} that live workers hold together. */
  static int held(Connection c, String host) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(HELD)) {
      s.setString(1, host);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  /** Every live grant, by host then owner. */
  static List<HostGrant> all(Connection c) throws SQLException {
    List<HostGrant> all = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement(ALL); ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        all.add(new HostGrant(rs.getString(1), rs.getString(2), rs.getInt(3)));
      }
    }
    return all;
  }

  private static int count(Connection c, String sql, String host, String owner) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, host);
      s.setString(2, owner);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? rs.getInt(1) : 0;
      }
    }
  }
}
