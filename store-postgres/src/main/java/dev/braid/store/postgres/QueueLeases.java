package dev.braid.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The lease SQL of the shared queue. A worker holds an entry while {@code owner} names it and
 * {@code lease_until} (the server's clock) is in the future; its heartbeat pushes the lease on.
 * An entry is runnable when it is queued or active and nobody holds it: no owner, or a lease that
 * lapsed (its worker died, or lost the database for longer than the lease). Each method runs on
 * the caller's connection inside the caller's transaction.
 */
final class QueueLeases {
  /** A runnable entry's condition, on the row's latest version (FOR UPDATE re-checks it after a wait). */
  static final String RUNNABLE = "state IN ('QUEUED', 'ACTIVE') AND (owner IS NULL OR lease_until < clock_timestamp())";

  /**
   * Claims up to (1) runnable entries for (2) with a lease of (3) ms, highest priority then oldest
   * first, and marks them active at (4). SKIP LOCKED passes over the rows another claimer is taking
   * at this instant, so concurrent claimers never wait on each other and never get the same entry.
   */
  private static final String CLAIM_NEXT = """
      WITH next AS (
        SELECT id, owner AS previous FROM queue
         WHERE %s
         ORDER BY priority DESC, id
         LIMIT ?
         FOR UPDATE SKIP LOCKED)
      UPDATE queue q SET owner = ?, lease_until = clock_timestamp() + ? * interval '1 millisecond',
             state = 'ACTIVE', error = NULL, error_kind = NULL, heartbeat_ms = ?, updated_ms = ?
        FROM next WHERE q.id = next.id
      RETURNING q.id, next.previous""".formatted(RUNNABLE);

  /**
   * Claims one named entry (id, owner, owner, lease ms, now, now) unless a live lease of another holds it; a row another
   * claimer holds locked right now counts as held (SKIP LOCKED), never waited for.
   */
  private static final String CLAIM_ONE = """
      WITH target AS (
        SELECT id, owner AS previous FROM queue
         WHERE id = ? AND (owner = ? OR owner IS NULL OR lease_until < clock_timestamp())
         FOR UPDATE SKIP LOCKED)
      UPDATE queue q SET owner = ?, lease_until = clock_timestamp() + ? * interval '1 millisecond',
             heartbeat_ms = ?, updated_ms = ?
        FROM target WHERE q.id = target.id
      RETURNING q.id, target.previous""";

  /** The heartbeat: an owner's leases pushed on by so many ms; returns what it still holds, with each entry's state. */
  private static final String RENEW = """
      UPDATE queue SET lease_until = clock_timestamp() + ? * interval '1 millisecond', heartbeat_ms = ?
       WHERE owner = ?
      RETURNING id, state""";

  /**
   * The end of a run, recorded only by the entry's holder and never over a completion: state,
   * error, kind, now, the state again (as text), id, owner. A worker that lost its lease (it stalled past it
   * and another took the entry over) changes nothing, so a completion is recorded once.
   */
  private static final String FINISH = """
      UPDATE queue SET state = ?, error = ?, error_kind = ?, updated_ms = ?,
             completed_by = CASE WHEN state_new.s = 'COMPLETED' THEN owner END,
             completed_at = CASE WHEN state_new.s = 'COMPLETED' THEN clock_timestamp() END,
             owner = NULL, lease_until = NULL
        FROM (SELECT ?::text AS s) state_new
       WHERE id = ? AND owner = ? AND state <> 'COMPLETED'
      RETURNING id""";

  private QueueLeases() {}

  /** An entry a claim took, and who held it before (null: nobody; else a lapsed lease taken over). */
  record Claim(long id, String previousOwner) {}

  /** Claims up to {@code limit} runnable entries for {@code owner}; an empty list when none is left. */
  static List<Claim> claimNext(Connection c, String owner, long leaseMillis, int limit) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(CLAIM_NEXT)) {
      long now = System.currentTimeMillis();
      s.setInt(1, limit);
      s.setString(2, owner);
      s.setLong(3, leaseMillis);
      s.setLong(4, now);
      s.setLong(5, now);
      return claims(s);
    }
  }

  /** Claims entry {@code id} for {@code owner} unless a live lease of another holds it; true if {@code owner} holds it now. */
  static boolean claim(Connection c, long id, String owner, long leaseMillis) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(CLAIM_ONE)) {
      long now = System.currentTimeMillis();
      s.setLong(1, id);
      s.setString(2, owner);
      s.setString(3, owner);
      s.setLong(4, leaseMillis);
      s.setLong(5, now);
      s.setLong(6, now);
      return !claims(s).isEmpty();
    }
  }

  /** Pushes {@code owner}'s leases on; returns the entries it still holds and the state of each. */
  static Map<Long, String> renew(Connection c, String owner, long leaseMillis) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(RENEW)) {
      s.setLong(1, leaseMillis);
      s.setLong(2, System.currentTimeMillis());
      s.setString(3, owner);
      Map<Long, String> held = new HashMap<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          held.put(rs.getLong(1), rs.getString(2));
        }
      }
      return held;
    }
  }

  /**
   * Records the end of {@code owner}'s run of entry {@code id} and lets it go; false (nothing
   * changed) when {@code owner} no longer holds it or its completion is already recorded.
   */
  static boolean finish(Connection c, long id, String owner, String state, String error, String errorKind)
      throws SQLException {
    try (PreparedStatement s = c.prepareStatement(FINISH)) {
      s.setString(1, state);
      s.setString(2, error);
      s.setString(3, errorKind);
      s.setLong(4, System.currentTimeMillis());
      s.setString(5, state);
      s.setLong(6, id);
      s.setString(7, owner);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next();
      }
    }
  }

  private static List<Claim> claims(PreparedStatement s) throws SQLException {
    List<Claim> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        out.add(new Claim(rs.getLong(1), rs.getString(2)));
      }
    }
    return out;
  }
}
