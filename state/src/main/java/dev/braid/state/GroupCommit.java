package dev.braid.state;

import dev.braid.store.StoreException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Runs the store's writes, several at a time in one transaction when they come together: a
 * writer queues its write, then takes the store's lock; whoever holds the lock next commits every
 * write queued by then, and a writer that finds its write committed by another returns at once.
 * A batch of small files ends a download every few milliseconds on one of 16 threads, and each
 * transaction of its own cost a commit (a WAL append and its locks) for a handful of rows.
 *
 * <p>Every write is still synchronous: {@link #run} returns after the commit that holds it, so
 * callers keep their order against the files (force, then record). A write that fails alone
 * fails as it would have on its own: when one write of a batch throws, the batch is rolled back
 * and each write runs again in a transaction of its own. A failure to begin or commit (another
 * process holds the database, a full disk) fails every write of the batch with it.
 *
 * <p>Threads: none of its own; any thread may call {@link #run}. The lock is the store's
 * monitor, which also serialises its reads.
 */
final class GroupCommit {
  /** A store write: statements on the store's connection, run under its lock. */
  interface Work<T> {
    T run() throws SQLException;
  }

  private final Store store;
  private final ConcurrentLinkedQueue<Write<?>> queued = new ConcurrentLinkedQueue<>();
  /** The thread committing a batch now, under the store's lock; a write it makes joins the batch's transaction. */
  private Thread committing;

  GroupCommit(Store store) {
    this.store = store;
  }

  /**
   * Runs {@code work} in a transaction, with whatever other writes are queued, and returns its
   * result once committed. {@code what} names it in a failure ("cannot " + what).
   *
   * @throws StoreException if the database refused it or the commit failed
   */
  <T> T run(String what, Work<T> work) {
    if (Thread.holdsLock(store) && committing == Thread.currentThread()) {
      // a write made by a write of the batch being committed: part of the same transaction
      try {
        return work.run();
      } catch (SQLException e) {
        throw store.failure(what, e);
      }
    }
    Write<T> w = new Write<>(what, work);
    queued.add(w);
    synchronized (store) {
      // under the lock, a write is either committed already or still queued: a batch is taken
      // from the queue and committed within one holding of the lock
      if (!w.done) {
        commitQueued();
      }
    }
    return w.outcome();
  }

  /** Commits every queued write; the caller holds the store's lock. */
  private void commitQueued() {
    List<Write<?>> batch = new ArrayList<>();
    for (Write<?> w = queued.poll(); w != null; w = queued.poll()) {
      batch.add(w);
    }
    committing = Thread.currentThread();
    try {
      if (batch.size() == 1) {
        alone(batch.get(0));
      } else {
        together(batch);
      }
    } finally {
      committing = null;
    }
  }

  private void together(List<Write<?>> batch) {
    try {
      begin();
    } catch (SQLException e) {
      batch.forEach(w -> w.failed(store.failure(w.what, e)));
      return;
    }
    boolean eachAlone = false;
    try {
      for (Write<?> w : batch) {
        w.runWork();
      }
    } catch (SQLException | RuntimeException e) {
      // one write failed: roll back, and let each run alone so that only that one fails
      eachAlone = true;
    }
    if (!eachAlone) {
      try {
        commit();
        batch.forEach(Write::committed);
        return;
      } catch (SQLException e) {
        rollbackQuietly();
        batch.forEach(w -> w.failed(store.failure(w.what, e)));
        return;
      }
    }
    rollbackQuietly();
    batch.forEach(this::alone);
  }

  /** One write in its own transaction. */
  private void alone(Write<?> w) {
    try {
      begin();
      try {
        w.runWork();
        commit();
        w.committed();
      } catch (SQLException | RuntimeException e) {
        rollbackQuietly();
        throw e;
      }
    } catch (SQLException e) {
      w.failed(store.failure(w.what, e));
    } catch (RuntimeException e) {
      w.failed(e);
    }
  }

  /**
   * Begins a transaction, IMMEDIATE: it takes the write lock now, waiting up to the busy timeout
   * for another process's. The transaction statements are prepared once, and the driver's own
   * transaction handling is not used: its commit ran "commit" and then "begin immediate" again,
   * and its switch back to auto-commit one more "commit", each parsed anew, so every write paid
   * for a second, empty transaction and its locks (1,000 x 100 KiB: CPU 0.975x, wall 0.978x).
   */
  private void begin() throws SQLException {
    store.statement("BEGIN IMMEDIATE").execute();
  }

  private void commit() throws SQLException {
    store.statement("COMMIT").execute();
  }

  private void rollbackQuietly() {
    try {
      store.statement("ROLLBACK").execute();
    } catch (SQLException ignored) {
      // SQLite rolls back by itself what some failed statements or commits left open
    }
  }

  /** One queued write and, once its batch ended, its result or failure. Guarded by the store's lock. */
  private static final class Write<T> {
    final String what;
    final Work<T> work;
    T result;
    RuntimeException failure;
    boolean done;

    Write(String what, Work<T> work) {
      this.what = what;
      this.work = work;
    }

    void runWork() throws SQLException {
      result = work.run();
    }

    void committed() {
      failure = null;
      done = true;
    }

    void failed(RuntimeException e) {
      result = null;
      failure = e;
      done = true;
    }

    T outcome() {
      if (failure != null) {
        throw failure;
      }
      return result;
    }
  }
}
