package dev.braid.state;

import dev.braid.store.StoreException;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The store's two connections and their locks. The writer, on which every write of this process
 * runs (writes that arrive together share one transaction, {@link GroupCommit}; each still returns
 * only once committed), is serialised on this object's monitor, so this process has exactly one
 * writer; the reader, serialised on a lock of its own, runs the reads. WAL lets a read go on
 * during another's write transaction and commit, and it sees every write committed before it
 * began: a write returns only once committed, so a thread reads back what it wrote. Other
 * processes' writers wait up to the busy timeout. Thread-safe.
 *
 * <p>Each table's statements are in a class of their own, which runs them through {@link #read}
 * and {@link #write}. Lock order: a write may read (on the writer, to see its own transaction), a
 * read never writes.
 */
final class Connections {
  private final Path file;
  /** The writer's statements; guarded by this object's monitor. */
  private final Statements statements;
  /** The reader's statements; guarded by {@link #readLock}. */
  private final Statements readStatements;
  /**
   * The reader's lock, not the writer's monitor: with one lock for both, a batch's reads (a
   * target's record, a host's memory, the queue's runnable entries) waited for the writes'
   * transactions and held them up in turn. Waiting for that lock was 40 % of a download thread's
   * time, over a third of it in reads (a wall-clock profile of 1,000 x 100 KiB).
   */
  private final Object readLock = new Object();
  private final GroupCommit writes;
  /** {@code PRAGMA data_version} at the last {@link #changedByOthers()}; -1 before the first. */
  private long dataVersion = -1;

  private Connections(Path file, Statements statements, Statements readStatements) {
    this.file = file;
    this.statements = statements;
    this.readStatements = readStatements;
    this.writes = new GroupCommit(this);
  }

  /** Opens (creating if needed) the database at the absolute path {@code file}: its writer, then its reader. */
  static Connections open(Path file) {
    Statements writer = new Statements(DatabaseOpener.open(file));
    try {
      return new Connections(file, writer, new Statements(DatabaseOpener.openReader(file)));
    } catch (RuntimeException e) {
      writer.close();
      throw e;
    }
  }

  /** {@return the database file, absolute} */
  Path file() {
    return file;
  }

  /** See {@link Store#changedByOthers()}; asked on the writer, under its lock. */
  synchronized boolean changedByOthers() {
    try (ResultSet rs = statement("PRAGMA data_version").executeQuery()) {
      long v = rs.getLong(1);
      boolean changed = v != dataVersion;
      dataVersion = v;
      return changed;
    } catch (SQLException e) {
      throw failure("read the data version", e);
    }
  }

  /** The writer's prepared statement for {@code sql} (see {@link Statements#get}); callers hold this object's lock. */
  PreparedStatement statement(String sql) throws SQLException {
    return statements.get(sql);
  }

  /** The reader's prepared statement for {@code sql}; callers are inside a {@link #read}. */
  PreparedStatement readStatement(String sql) throws SQLException {
    return readStatements.get(sql);
  }

  /**
   * Runs {@code work} on the reader, under the read lock, and returns its result; each statement
   * sees the last commit before it. {@code what} names it in a failure ("cannot " + what).
   */
  <T> T read(String what, GroupCommit.Work<T> work) {
    synchronized (readLock) {
      try {
        return work.run();
      } catch (SQLException e) {
        throw failure(what, e);
      }
    }
  }

  /**
   * Like {@link #read}, in one read transaction: every statement of {@code work} sees the same
   * commit, so what moves between two of them (an entry that starts or ends) is seen once.
   */
  <T> T readTogether(String what, GroupCommit.Work<T> work) {
    return read(what, () -> {
      readStatement("BEGIN DEFERRED").execute();
      try {
        T result = work.run();
        readStatement("COMMIT").execute();
        return result;
      } catch (SQLException | RuntimeException e) {
        readStatement("ROLLBACK").execute();
        throw e;
      }
    });
  }

  /**
   * Runs {@code work} in a transaction, shared with the writes of other threads that come at the
   * same time ({@link GroupCommit}), and returns its result once committed. {@code work} runs
   * under this object's lock; callers need not hold it.
   */
  <T> T write(String what, GroupCommit.Work<T> work) {
    return writes.run(what, work);
  }

  StoreException failure(String what, SQLException e) {
    return new StoreException("state database " + file + ": cannot " + what + ": " + SqliteErrors.describe(e), e);
  }

  /** Closes the writer, then the reader, each under its lock. */
  void close() {
    synchronized (this) {
      statements.close();
    }
    synchronized (readLock) {
      readStatements.close();
    }
  }
}
