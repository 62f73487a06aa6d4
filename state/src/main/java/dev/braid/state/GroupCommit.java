package dev.braid.state;

import dev.braid.store.StoreException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs the store's writes, several at a time in one transaction when they come together: a
 * writer queues its write; one writer at a time, the committer, takes the writer's lock,
 * commits every write queued by then in one transaction, wakes each writer whose write it
 * committed and then the next in line, which commits what was queued meanwhile. The others
 * wait for their own write, not for the lock.
 * A batch of small files ends a download every few milliseconds on one of 16 threads, and each
 * transaction of its own cost a commit (a WAL append and its locks) for a handful of rows.
 *
 * <p>Why writers do not wait on the lock itself: they did, and each writer whose write a batch
 * had committed still had to take the lock in turn to learn it, one thread woken after the other
 * while the next batch waited behind them; on two busy cores, 16 download threads spent 47 % of
 * their time there (a wall-clock profile of 1,000 x 100 KiB), most of it for writes already done.
 *
 * <p>Every write is still synchronous: {@link #run} returns after the commit that holds it, so
 * callers keep their order against the files (force, then record). A write that fails alone
 * fails as it would have on its own: when one write of a batch throws, the batch is rolled back
 * and each write runs again in a transaction of its own. A failure to begin or commit (another
 * process holds the database, a full disk) fails every write of the batch with it.
 *
 * <p>Threads: none of its own; any thread may call {@link #run}, and a writer that finds no
 * committer becomes it for one batch. Its lock is the monitor of {@link Connections}, which
 * also guards the writer's connection elsewhere; a writer that holds it already commits at once.
 * A waiting writer parks; an interrupt does not end its wait (its write is queued and will be
 * committed), and its interrupt status is kept.
 */
final class GroupCommit {
  /** A store write: statements on the writer, run under its lock. */
  interface Work<T> {
    T run() throws SQLException;
  }

  private final Connections db;
  private final ConcurrentLinkedQueue<Write<?>> queued = new ConcurrentLinkedQueue<>();
  /** The writer that commits the queued writes now, or null: at most one thread waits for the lock to commit. */
  private final AtomicReference<Thread> committer = new AtomicReference<>();
  /** The thread committing a batch now, under the writer's lock; a write it makes joins the batch's transaction. */
  private Thread committing;

  GroupCommit(Connections db) {
    this.db = db;
  }

  /**
   * Runs {@code work} in a transaction, with whatever other writes are queued, and returns its
   * result once committed. {@code what} names it in a failure ("cannot " + what).
   *
   * @throws StoreException if the database refused it or the commit failed
   */
  <T> T run(String what, Work<T> work) {
    if (Thread.holdsLock(db) && committing == Thread.currentThread()) {
      // a write made by a write of the batch being committed: part of the same transaction
      try {
        return work.run();
      } catch (SQLException e) {
        throw db.failure(what, e);
      }
    }
    Write<T> w = new Write<>(what, work, Thread.currentThread());
    queued.add(w);
    if (Thread.holdsLock(db)) {
      // the lock is this thread's already: a committer elsewhere would wait for it, so commit here
      // rather than wait for that one
      commitQueued();
      return w.outcome();
    }
    boolean interrupted = false;
    while (!w.done) {
      if (committer.compareAndSet(null, Thread.currentThread())) {
        try {
          synchronized (db) {
            // one batch, the one holding this thread's write (unless another committed it meanwhile)
            commitQueued();
          }
        } finally {
          committer.set(null);
          // the next writer in line commits the writes queued meanwhile: woken here, since it saw
          // a committer and waits; a download thread does not go on committing for others
          Write<?> next = queued.peek();
          if (next != null) {
            LockSupport.unpark(next.writer);
          }
        }
      } else {
        LockSupport.park(this);
        interrupted |= Thread.interrupted();
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return w.outcome();
  }

  /** Commits every queued write and wakes their writers; the caller holds the writer's lock. */
  private void commitQueued() {
    List<Write<?>> batch = new ArrayList<>();
    for (Write<?> w = queued.poll(); w != null; w = queued.poll()) {
      batch.add(w);
    }
    if (batch.isEmpty()) {
      // committed already, with this thread's write, by a writer that held the lock
      return;
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
      for (Write<?> w : batch) {
        if (!w.done) {
          // an Error on the way: the writer must not wait for ever
          w.failed(new StoreException("cannot " + w.what + ": the write was interrupted by an error", null));
        }
        if (w.writer != Thread.currentThread()) {
          LockSupport.unpark(w.writer);
        }
      }
    }
  }

  private void together(List<Write<?>> batch) {
    try {
      begin();
    } catch (SQLException e) {
      batch.forEach(w -> w.failed(db.failure(w.what, e)));
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
        batch.forEach(w -> w.failed(db.failure(w.what, e)));
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
      w.failed(db.failure(w.what, e));
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
    db.statement("BEGIN IMMEDIATE").execute();
  }

  private void commit() throws SQLException {
    db.statement("COMMIT").execute();
  }

  private void rollbackQuietly() {
    try {
      db.statement("ROLLBACK").execute();
    } catch (SQLException ignored) {
      // SQLite rolls back by itself what some failed statements or commits left open
    }
  }

  /**
   * One queued write and, once its batch ended, its result or failure: written by the committer
   * before {@link #done}, read by the writer after it (the volatile write and read order them).
   */
  private static final class Write<T> {
    final String what;
    final Work<T> work;
    /** The thread waiting for it, woken once it is done. */
    final Thread writer;
    T result;
    RuntimeException failure;
    volatile boolean done;

    Write(String what, Work<T> work, Thread writer) {
      this.what = what;
      this.work = work;
      this.writer = writer;
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
