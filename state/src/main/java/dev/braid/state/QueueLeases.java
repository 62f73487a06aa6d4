package dev.braid.state;

import static dev.braid.state.QueueRows.ENTRY;

import dev.braid.store.DownloadState;
import dev.braid.store.EntryProgress;
import dev.braid.store.EntryRetry;
import dev.braid.store.QueueEntry;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Who drives each queue entry: claims and their release, the start of a run, the heartbeats that
 * record its progress and keep its claim, and its end.
 *
 * <p>Locking: every method is a {@link Connections#write} (one IMMEDIATE transaction, under the writer's
 * lock), so a claim is atomic across processes; callers need not hold the lock.
 */
final class QueueLeases {
  /** The entries an owner holds, read by every heartbeat. */
  static final String OWNED = "SELECT id, state FROM queue WHERE owner = ?";
  /** The progress of an entry, recorded only while {@code owner} still holds it. */
  private static final String PROGRESS =
      "UPDATE queue SET heartbeat_ms = ?, target = COALESCE(?, target), length = ?, done = ? WHERE id = ? AND owner = ?";

  /**
   * The end of an owner's run of an entry ({@link #finish}), one statement: each update of a row is
   * numbered again by a trigger (schema v8), and a batch of small files ends a download every few
   * milliseconds. Recorded only by the entry's holder (or with nobody holding it) and never over a
   * completion: an owner whose claim went to another (it was judged gone) changes nothing with its
   * late end, and a completion is recorded once. ?1 owner, ?2 now, ?3 target, ?4 length, ?5 done,
   * ?6 state (null: left as is), ?7 error, ?8 its kind, ?9 id, ?10-?12 the retry state. Every
   * right-hand side reads the row as it was.
   */
  private static final String FINISH = "UPDATE queue SET heartbeat_ms = ?2, target = coalesce(?3, target), length = ?4, done = ?5,"
      + " state = coalesce(?6, state),"
      + " error = CASE WHEN ?6 IS NULL THEN error ELSE ?7 END,"
      + " error_kind = CASE WHEN ?6 IS NULL THEN error_kind ELSE ?8 END,"
      + " updated_ms = CASE WHEN ?6 IS NULL THEN updated_ms ELSE ?2 END,"
      + " retry_at = CASE WHEN ?6 IS NULL THEN retry_at ELSE ?10 END,"
      + " retry_count = CASE WHEN ?6 IS NULL THEN retry_count ELSE ?11 END,"
      + " retry_since = CASE WHEN ?6 IS NULL THEN retry_since ELSE ?12 END,"
      + " owner = NULL"
      + " WHERE id = ?9 AND (owner = ?1 OR owner IS NULL) AND state <> 'COMPLETED' RETURNING " + ENTRY;

  /**
   * {@link #start} of an entry that may run and that {@code ?1} holds: ?1 owner, ?2 now, ?3 id. A
   * retry's wait ends (its count of failures stays, for the next failure's wait).
   */
  private static final String START_OURS = "UPDATE queue SET heartbeat_ms = ?2, updated_ms = ?2, state = 'ACTIVE',"
      + " error = NULL, error_kind = NULL, retry_at = 0 WHERE id = ?3 AND owner = ?1 AND state IN ('QUEUED', 'ACTIVE')"
      + " AND retry_at <= ?2 RETURNING " + ENTRY;

  private final Connections db;
  private final QueueRows rows;
  private final QueueHeaders headers;

  QueueLeases(Connections db, QueueRows rows, QueueHeaders headers) {
    this.db = db;
    this.rows = rows;
    this.headers = headers;
  }

  boolean claim(long id, String owner, Predicate<QueueEntry> held) {
    return db.write("claim queue entry " + id, () -> {
      Optional<QueueEntry> e = rows.select(QueueRows.BY_ID, id).stream().findFirst();
      if (e.isEmpty()) {
        return false;
      }
      String holder = e.get().owner();
      if (holder != null && !holder.equals(owner) && held.test(e.get())) {
        return false;
      }
      PreparedStatement s = db.statement("UPDATE queue SET owner = ?, heartbeat_ms = ?, updated_ms = ? WHERE id = ?");
      long now = System.currentTimeMillis();
      s.setString(1, owner);
      s.setLong(2, now);
      s.setLong(3, now);
      s.setLong(4, id);
      s.executeUpdate();
      return true;
    });
  }

  Optional<QueueEntry> start(long id, String owner, Predicate<QueueEntry> held) {
    return db.write("start queue entry " + id, () -> {
      long now = System.currentTimeMillis();
      // the usual case, one statement: the entry may run and this owner claimed it when it added
      // it (a batch starts one every few milliseconds)
      PreparedStatement ours = db.statement(START_OURS);
      ours.setString(1, owner);
      ours.setLong(2, now);
      ours.setLong(3, id);
      Optional<QueueEntry> started = QueueRows.select(ours).stream().findFirst();
      if (started.isPresent()) {
        return started;
      }
      Optional<QueueEntry> found = rows.select(QueueRows.BY_ID, id).stream().findFirst();
      if (found.isEmpty()) {
        return Optional.<QueueEntry>empty();
      }
      QueueEntry e = found.get();
      boolean mine = owner.equals(e.owner());
      if (e.retry().atMillis() > now) {
        // waiting out an outage: not yet, and the claim stays for when it is time
        return Optional.<QueueEntry>empty();
      }
      if (e.state() != DownloadState.QUEUED && e.state() != DownloadState.ACTIVE) {
        if (mine) {
          rows.update("UPDATE queue SET owner = NULL WHERE id = ? AND owner = ?", id, owner);
        }
        return Optional.<QueueEntry>empty();
      }
      if (e.owner() != null && !mine && held.test(e)) {
        return Optional.<QueueEntry>empty();
      }
      rows.update("UPDATE queue SET owner = ?, heartbeat_ms = ?, updated_ms = ?, state = 'ACTIVE', error = NULL, error_kind = NULL,"
          + " retry_at = 0 WHERE id = ?", owner, now, now, id);
      EntryRetry r = e.retry();
      return Optional.of(new QueueEntry(e.id(), e.urls(), e.file(), e.directory(), e.options(), e.priority(),
          DownloadState.ACTIVE, null, null, e.target(), e.length(), e.done(), owner, now,
          new EntryRetry(0, r.failures(), r.sinceMillis())));
    });
  }

  void release(long id, String owner) {
    rows.write("UPDATE queue SET owner = NULL WHERE id = ? AND owner = ?", id, owner);
  }

  Map<Long, DownloadState> heartbeat(String owner, List<EntryProgress> progress) {
    return db.write("record queue progress", () -> {
      long now = System.currentTimeMillis();
      PreparedStatement update = db.statement(PROGRESS);
      for (EntryProgress p : progress) {
        bindProgress(update, now, p, owner);
        update.addBatch();
      }
      update.executeBatch();
      Map<Long, DownloadState> states = new HashMap<>();
      PreparedStatement read = db.statement(OWNED);
      read.setString(1, owner);
      try (ResultSet rs = read.executeQuery()) {
        while (rs.next()) {
          states.put(rs.getLong(1), DownloadState.valueOf(rs.getString(2)));
        }
      }
      return states;
    });
  }

  Optional<QueueEntry> finish(String owner, EntryProgress last, DownloadState state, String error, String errorKind,
      EntryRetry retry) {
    return db.write("record the end of queue entry " + last.id(), () -> {
      PreparedStatement s = db.statement(FINISH);
      s.setString(1, owner);
      s.setLong(2, System.currentTimeMillis());
      Statements.setNullable(s, 3, last.target() == null ? null : last.target().toString());
      s.setLong(4, last.length());
      s.setLong(5, last.done());
      Statements.setNullable(s, 6, state == null ? null : state.name());
      Statements.setNullable(s, 7, error);
      Statements.setNullable(s, 8, errorKind);
      s.setLong(9, last.id());
      s.setLong(10, retry.atMillis());
      s.setInt(11, retry.failures());
      s.setLong(12, retry.sinceMillis());
      Optional<QueueEntry> ended = QueueRows.select(s).stream().findFirst();
      if (ended.isEmpty()) {
        // gone, held by another owner, or completed already: nothing changed
        return rows.select(QueueRows.BY_ID, last.id()).stream().findFirst();
      }
      if (state == DownloadState.COMPLETED) {
        headers.insert(last.id(), Map.of());
      }
      return ended;
    });
  }

  private static void bindProgress(PreparedStatement s, long now, EntryProgress p, String owner) throws SQLException {
    s.setLong(1, now);
    Statements.setNullable(s, 2, p.target() == null ? null : p.target().toString());
    s.setLong(3, p.length());
    s.setLong(4, p.done());
    s.setLong(5, p.id());
    s.setString(6, owner);
  }
}
