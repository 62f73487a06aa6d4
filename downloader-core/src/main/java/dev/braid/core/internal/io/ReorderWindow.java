package dev.braid.core.internal.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.TreeMap;

/**
 * The bytes of a download read in order, held in a ring of fixed size between the workers, who
 * write each at its offset in any order, and one reader, who takes them from the front once
 * every byte before them is there. Memory does not grow with the file: a worker whose bytes lie
 * beyond the ring's end waits in {@link #write} until the reader has taken enough (the in-order
 * window keeps workers near the front, so this is the reader being slower than the download).
 *
 * <p>Threads: any number of writers (the workers), one reader. A writer copies into the ring
 * outside the lock (writers own disjoint offsets, and the reader reads only below {@code
 * contiguous}, where no writer writes), and takes the lock only to wait for room and to record
 * what it wrote. {@link #close} (the reader is done) and {@link #fail} wake everyone.
 */
public final class ReorderWindow implements SegmentSink {
  private final Object lock = new Object();
  private final int capacity;
  private byte[] ring;
  /** The next byte the reader takes. */
  private long base;
  /** Every byte before this is in the ring or was read. */
  private long contiguous;
  /** Written ranges beyond {@link #contiguous}, start to end, not yet joined to it. */
  private final TreeMap<Long, Long> ahead = new TreeMap<>();
  /** The file's length once known to be complete (every byte written); -1 before. */
  private long end = -1;
  private Throwable failure;
  private boolean closed;
  /** The most bytes the ring held at once, written or waiting to be read. */
  private long peak;

  /** A window of at most {@code capacity} bytes; the ring is made by {@link #start}. */
  public ReorderWindow(int capacity) {
    if (capacity <= 0) {
      throw new IllegalArgumentException("capacity must be positive, not " + capacity);
    }
    this.capacity = capacity;
  }

  /** Makes the ring for a file of {@code length} bytes (-1: unknown): no larger than the file. */
  public void start(long length) {
    synchronized (lock) {
      ring = new byte[length >= 0 ? (int) Math.min(capacity, Math.max(1, length)) : capacity];
    }
  }

  /** The ring's size in bytes: what the window holds at most; 0 before {@link #start}. */
  public int size() {
    synchronized (lock) {
      return ring == null ? 0 : ring.length;
    }
  }

  /** The most bytes the ring held at once so far (written ahead of the reader, or not read yet). */
  public long peak() {
    synchronized (lock) {
      return peak;
    }
  }

  @Override
  public void write(ByteBuffer buffer, long position) throws IOException {
    int n = buffer.remaining();
    long from;
    synchronized (lock) {
      while (failure == null && !closed && position + n > base + ring.length) {
        try {
          lock.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while the stream's reader was behind", e);
        }
      }
      if (closed || failure != null) {
        throw new IOException("the stream was closed");
      }
      // bytes before the contiguous end came already (a server without ranges sends them again after a failure)
      from = Math.max(position, contiguous);
    }
    if (from >= position + n) {
      return;
    }
    buffer.position(buffer.position() + (int) (from - position));
    copyIn(buffer, from);
    synchronized (lock) {
      ahead.merge(from, position + n, Math::max);
      boolean moved = false;
      for (Map.Entry<Long, Long> e = ahead.firstEntry(); e != null && e.getKey() <= contiguous; e = ahead.firstEntry()) {
        contiguous = Math.max(contiguous, e.getValue());
        ahead.pollFirstEntry();
        moved = true;
      }
      peak = Math.max(peak, Math.max(contiguous, position + n) - base);
      if (moved) {
        lock.notifyAll();
      }
    }
  }

  private void copyIn(ByteBuffer buffer, long from) {
    int at = (int) (from % ring.length);
    int first = Math.min(buffer.remaining(), ring.length - at);
    buffer.get(ring, at, first);
    if (buffer.hasRemaining()) {
      buffer.get(ring, 0, buffer.remaining());
    }
  }

  /** Where {@link #take} hands the reader's bytes: {@code count} of them at {@code offset} of the ring itself. */
  public interface Taken {
    void bytes(byte[] ring, int offset, int count) throws IOException;
  }

  /**
   * Takes the next bytes in order, at most {@code max}, blocking until there are some: hands them to
   * {@code to} (straight from the ring, before they are released to the writers) and returns how
   * many; -1 once every byte was taken ({@link #finish}).
   *
   * @throws IOException the failure given to {@link #fail}, or a closed window
   */
  public int take(int max, Taken to) throws IOException {
    int n;
    int at;
    synchronized (lock) {
      while (failure == null && !closed && contiguous == base && (end < 0 || base < end)) {
        try {
          lock.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("interrupted while waiting for the download");
        }
      }
      if (closed) {
        throw new IOException("the stream is closed");
      }
      if (contiguous == base) {
        if (failure != null) {
          throw failure instanceof IOException io ? io : new IOException(failure.getMessage(), failure);
        }
        return -1;
      }
      at = (int) (base % ring.length);
      n = (int) Math.min(Math.min(max, contiguous - base), ring.length - at);
    }
    to.bytes(ring, at, n);
    synchronized (lock) {
      base += n;
      lock.notifyAll();
    }
    return n;
  }

  /** Every byte of the file is written: {@code length} in all. The reader gets -1 after the last. */
  public void finish(long length) {
    synchronized (lock) {
      end = length;
      lock.notifyAll();
    }
  }

  /** The download failed: the reader gets {@code cause} once it has taken every byte before the gap, writers stop. */
  public void fail(Throwable cause) {
    synchronized (lock) {
      if (failure == null) {
        failure = cause;
      }
      lock.notifyAll();
    }
  }

  /** The reader is done: waiting writers fail, and the ring is let go. */
  public void close() {
    synchronized (lock) {
      closed = true;
      lock.notifyAll();
    }
  }

  @Override
  public String name() {
    return "the stream's window";
  }

  @Override
  public boolean outOfSpace() {
    return false;
  }
}
