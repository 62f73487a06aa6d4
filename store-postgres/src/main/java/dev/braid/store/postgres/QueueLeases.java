package dev.braid.store.postgres;

import dev.braid.store.DownloadState;
import dev.braid.store.EntryProgress;
import dev.braid.store.EntryRetry;
import dev.braid.store.QueueEntry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The lease SQL of the shared queue. A worker holds an entry while {@code owner} names it and
 * {@code lease_until} (the server's clock) is in the future; its heartbeat pushes the lease on.
 * An entry may be taken when nobody holds it: no owner, or a lease that lapsed (its worker died,
 * or lost the database for longer than the lease). Each method runs on the caller's connection
 * inside the caller's transaction.
 */
final class QueueLeases {
  /** Nobody holds the row: the condition a claim re-checks on the row's latest version. */
  static final String FREE = "(owner IS NULL OR lease_until < clock_timestamp())";
  static final String LEASE = "clock_timestamp() + ? * interval '1 millisecond'";

  /**
   * Starts a runnable entry (id, owner): claims it and marks it active. SKIP LOCKED: a row
   * another worker is starting at this instant is passed over at once, never waited for, so
   * workers reading the same page of runnable entries spread over it instead of queueing on its
   * first row, and two never get the same entry; an entry waiting out an outage only once its time
   * came (its wait ends, its count of failures stays). Parameters: id, owner, now, owner, lease ms, now, now.
   */
  private static final String START = """
      WITH target AS (
        SELECT id, owner AS previous FROM queue
         WHERE id = ? AND state IN ('QUEUED', 'ACTIVE') AND (owner = ? OR %s) AND retry_at <= ?
         FOR UPDATE SKIP LOCKED)
      UPDATE queue q SET owner = ?, lease_until = %s, state = 'ACTIVE', error = NULL, error_kind = NULL,
             retry_at = 0, heartbeat_ms = ?, updated_ms = ?
        FROM target WHERE q.id = target.id
      RETURNING %s""".formatted(FREE, LEASE, QueueRows.Q_ENTRY);
  /** A claim not runnable any more is given up (id, owner), as the SQLite store does. */
  private static final String GIVE_UP =
      "UPDATE queue SET owner = NULL, lease_until = NULL WHERE id = ? AND owner = ? AND state NOT IN ('QUEUED', 'ACTIVE')";

  /**
   * Claims one named entry (owner, lease ms, now, now, id, owner) unless a live lease of another holds
   * it; waits for a row another transaction has locked (a claim is one user's action, not a race).
   */
  private static final String CLAIM = """
      UPDATE queue SET owner = ?, lease_until = %s, heartbeat_ms = ?, updated_ms = ?
       WHERE id = ? AND (owner = ? OR %s)""".formatted(LEASE, FREE);

  /** A heartbeat's progress of one entry, recorded only while its owner holds it. */
  private static final String PROGRESS =
      "UPDATE queue SET heartbeat_ms = ?, target = coalesce(?, target), length = ?, done = ? WHERE id = ? AND owner = ?";
  /** The heartbeat's lease renewal (lease ms, now, owner); returns what the owner still holds, with each state. */
  private static final String RENEW = """
      UPDATE queue SET lease_until = %s, heartbeat_ms = ? WHERE owner = ?
      RETURNING id, state""".formatted(LEASE);

  /**
   * The end of a run: recorded only by the entry's holder (or with nobody holding it) and never
   * over a completion, so a worker that lost its lease (it stalled past it and another took the
   * entry over) changes nothing and a completion is recorded once. A null state leaves the state
   * to a remover. Parameters: now, target, length, done, state, state, error, state, kind,
   * state, now, state, retry at, state, retry count, state, retry since, state, owner, state, id, owner.
   */
  private static final String FINISH = """
      UPDATE queue SET heartbeat_ms = ?, target = coalesce(?, target), length = ?, done = ?,
             state = coalesce(?, state),
             error = CASE WHEN ?::text IS NULL THEN error ELSE ? END,
             error_kind = CASE WHEN ?::text IS NULL THEN error_kind ELSE ? END,
             updated_ms = CASE WHEN ?::text IS NULL THEN updated_ms ELSE ? END,
             retry_at = CASE WHEN ?::text IS NULL THEN retry_at ELSE ? END,
             retry_count = CASE WHEN ?::text IS NULL THEN retry_count ELSE ? END,
             retry_since = CASE WHEN ?::text IS NULL THEN retry_since ELSE ? END,
             completed_by = CASE WHEN ?::text = 'COMPLETED' THEN ? ELSE completed_by END,
             completed_at = CASE WHEN state <> 'COMPLETED' AND ?::text = 'COMPLETED' THEN clock_timestamp() ELSE completed_at END,
             owner = NULL, lease_until = NULL
       WHERE id = ? AND (owner = ? OR owner IS NULL) AND state <> 'COMPLETED'
      RETURNING %s""".formatted(QueueRows.ENTRY);

  private QueueLeases() {}

  /** Starts entry {@code id} for {@code owner} if it is runnable and free; empty otherwise. */
  static Optional<QueueEntry> start(Connection c, long id, String owner, long leaseMillis) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(START)) {
      long now = System.currentTimeMillis();
      QueueRows.bind(s, id, owner, now, owner, leaseMillis, now, now);
      Optional<QueueEntry> started = QueueRows.read(s).stream().findFirst();
      if (started.isEmpty()) {
        try (PreparedStatement g = c.prepareStatement(GIVE_UP)) {
          QueueRows.bind(g, id, owner);
          g.executeUpdate();
        }
      }
      return started;
    }
  }

  /** Claims entry {@code id} for {@code owner} unless a live lease of another holds it; whether {@code owner} holds it now. */
  static boolean claim(Connection c, long id, String owner, long leaseMillis) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(CLAIM)) {
      long now = System.currentTimeMillis();
      QueueRows.bind(s, owner, leaseMillis, now, now, id, owner);
      return s.executeUpdate() == 1;
    }
  }

  /** Records {@code owner}'s progress, pushes its leases on; returns the entries it still holds and the state of each. */
  static Map<Long, DownloadState> renew(Connection c, String owner, List<EntryProgress> progress, long leaseMillis)
      throws SQLException {
    long now = System.currentTimeMillis();
    if (!progress.isEmpty()) {
      try (PreparedStatement s = c.prepareStatement(PROGRESS)) {
        for (EntryProgress p : progress) {
          QueueRows.bind(s, now, p.target(), p.length(), p.done(), p.id(), owner);
          s.addBatch();
        }
        s.executeBatch();
      }
    }
    try (PreparedStatement s = c.prepareStatement(RENEW)) {
      QueueRows.bind(s, leaseMillis, now, owner);
      Map<Long, DownloadState> held = new HashMap<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          held.put(rs.getLong(1), DownloadState.valueOf(rs.getString(2)));
        }
      }
      return held;
    }
  }

  /**
   * Records the end of {@code owner}'s run of an entry and lets it go; empty (nothing changed)
   * when another worker holds it now or its completion is already recorded.
   */
  static Optional<QueueEntry> finish(Connection c, String owner, EntryProgress last, DownloadState state, String error,
      String errorKind, EntryRetry retry) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(FINISH)) {
      String st = state == null ? null : state.name();
      long now = System.currentTimeMillis();
      QueueRows.bind(s, now, last.target(), last.length(), last.done(), st, st, error, st, errorKind, st, now,
          st, retry.atMillis(), st, retry.failures(), st, retry.sinceMillis(), st, owner, st, last.id(), owner);
      return QueueRows.read(s).stream().findFirst();
    }
  }
}
