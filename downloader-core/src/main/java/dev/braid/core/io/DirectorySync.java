package dev.braid.core.io;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Makes new entries of a directory durable with fsyncs shared between callers (group commit):
 * {@link #sync} returns once an fsync of the directory that began after the call has finished.
 * A batch of small files finishing in one folder then pays for a few journal commits instead of
 * one each (the fsyncs of a 1,000-file batch were most of its wall time).
 *
 * <p>The caller's thread runs the fsync when none is running, else it waits for the running one
 * and then for the next, which one of the waiters runs and which covers them all. An interrupt
 * while waiting ends the wait with an {@link InterruptedIOException} and keeps the thread's
 * interrupt status.
 */
final class DirectorySync {
  // one per directory in use; weak values drop it once no caller holds it
  private static final Cache<Path, DirectorySync> DIRECTORIES = Caffeine.newBuilder().weakValues().build();

  private final Path dir;
  private long requested;
  private long covered;
  private boolean running;

  private DirectorySync(Path dir) {
    this.dir = dir;
  }

  /** Returns once every entry created or renamed in {@code dir} before the call is durable. */
  static void sync(Path dir) throws IOException {
    if (dir == null) {
      return;
    }
    DIRECTORIES.get(dir.toAbsolutePath().normalize(), DirectorySync::new).await();
  }

  private void await() throws IOException {
    long upTo;
    synchronized (this) {
      long ticket = ++requested;
      while (true) {
        if (covered >= ticket) {
          return;
        }
        if (!running) {
          running = true;
          upTo = requested;
          break;
        }
        try {
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted waiting for an fsync of " + dir);
        }
      }
    }
    // this caller leads: the fsync runs outside the lock so that later callers queue behind it
    boolean done = false;
    try {
      force();
      done = true;
    } finally {
      synchronized (this) {
        running = false;
        if (done) {
          covered = Math.max(covered, upTo);
        }
        // on a failure a waiter leads the next fsync and meets the error itself
        notifyAll();
      }
    }
  }

  private void force() throws IOException {
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    } catch (IOException e) {
      // some filesystems refuse to open a directory for fsync; the entries exist all the same
      if (!(e.getMessage() != null && e.getMessage().contains("Is a directory"))) {
        throw e;
      }
    }
  }
}
