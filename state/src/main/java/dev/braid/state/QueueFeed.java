package dev.braid.state;

import static dev.braid.state.QueueRows.ENTRY;

import dev.braid.store.ChangeMark;
import dev.braid.store.QueueEntry;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * The queue's change feed: the newest id, the numbers of changes (schema v8) and what changed or
 * was removed between two of them, for clients of other processes that follow the queue.
 *
 * <p>Locking: the numbers and the mark are read on the writer, under its lock: the mark
 * asks the writer whether another connection committed ({@link Connections#changedByOthers}) in the
 * same transaction. What changed between two numbers is a {@link Connections#read}.
 */
final class QueueFeed {
  static final String CHANGED = "SELECT " + ENTRY + " FROM queue WHERE seq > ? AND seq <= ? ORDER BY seq";
  static final String REMOVED = "SELECT id FROM queue_removed WHERE seq > ? AND seq <= ? ORDER BY seq";

  private final Connections db;
  private final QueueRows rows;

  QueueFeed(Connections db, QueueRows rows) {
    this.db = db;
    this.rows = rows;
  }

  long newestId() {
    return number("SELECT coalesce(max(id), 0) FROM queue");
  }

  long latestChange() {
    return number("SELECT max(coalesce((SELECT max(seq) FROM queue), 0), coalesce((SELECT max(seq) FROM queue_removed), 0))");
  }

  ChangeMark mark() {
    synchronized (db) {
      try {
        db.statement("BEGIN DEFERRED").execute();
        try {
          boolean others = db.changedByOthers();
          ChangeMark m = new ChangeMark(newestId(), latestChange(), others);
          db.statement("COMMIT").execute();
          return m;
        } catch (RuntimeException | SQLException e) {
          db.statement("ROLLBACK").execute();
          throw e;
        }
      } catch (SQLException e) {
        throw db.failure("read the queue's change feed", e);
      }
    }
  }

  private long number(String sql) {
    synchronized (db) {
      try (ResultSet rs = db.statement(sql).executeQuery()) {
        return rs.getLong(1);
      } catch (SQLException e) {
        throw db.failure("read the queue", e);
      }
    }
  }

  List<QueueEntry> changedBetween(long after, long upTo) {
    return rows.read(CHANGED, after, upTo);
  }

  List<Long> removedBetween(long after, long upTo) {
    return rows.ids(REMOVED, after, upTo);
  }
}
