package dev.braid.core.internal.http;

import dev.braid.core.time.Ticker;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.apache.hc.core5.http.nio.CapacityChannel;

/**
 * One HTTP/2 stream's bytes between the reactor, which queues each DATA frame ({@link #offer}),
 * and the worker, which takes them ({@link #take}): the queue, the stream's course (its end, its
 * failure, the length it declared, what was taken) and its {@link StreamCredit}. It never sends a
 * window update itself: it returns each {@link StreamCredit.Grant} for the caller to send with no
 * lock held.
 *
 * <p>Threads: {@link #head}, {@link #offer} and {@link #end} come from the reactor, {@link #take}
 * from the worker, {@link #fail} and {@link #abort} from either or from the thread that aborts.
 * Every field but the final ones is guarded by {@code lock}; the credit is counted under it too
 * (lock order: this lock, then the credit's), so a frame is never queued after the credit went back.
 */
final class StreamQueue {
  /** How often a waiting reader looks whether its connection has stalled. */
  private static final long STALL_CHECK_NANOS = 250_000_000L;

  private final StreamCredit credit;
  private final Ticker ticker;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition arrived = lock.newCondition();
  private final ArrayDeque<ByteBuffer> chunks = new ArrayDeque<>();
  private boolean ended;
  private IOException failure;
  private long declaredLength = -1;
  private long taken;

  StreamQueue(WindowBudget budget, Ticker ticker) {
    credit = new StreamCredit(budget);
    this.ticker = ticker;
  }

  StreamCredit credit() {
    return credit;
  }

  long declaredLength() {
    lock.lock();
    try {
      return declaredLength;
    } finally {
      lock.unlock();
    }
  }

  /** The body's length when the head did not declare it (a 206 without Content-Length). */
  void declareLength(long length) {
    lock.lock();
    try {
      declaredLength = length;
    } finally {
      lock.unlock();
    }
  }

  /** The head arrived: a body of {@code length} bytes follows (-1: not declared), or none. */
  void head(boolean body, long length) {
    lock.lock();
    try {
      if (body) {
        declaredLength = length;
      } else {
        ended = true;
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Queues a copy of a DATA frame, unless the stream failed or holds no credit any more. Returns
   * the channel to give the frame's window back through when an abort lets the rest in to be
   * dropped; else null.
   */
  CapacityChannel offer(ByteBuffer src) {
    lock.lock();
    try {
      CapacityChannel drop = credit.drainChannel();
      if (failure == null && !credit.released()) {
        ByteBuffer copy = ByteBuffer.allocate(src.remaining());
        copy.put(src).flip();
        chunks.add(copy);
        arrived.signalAll();
      } else {
        src.position(src.limit());
      }
      return drop;
    } finally {
      lock.unlock();
    }
  }

  /** The stream ended: returns whether nothing is left to read, so that its credit can go back. */
  boolean end() {
    lock.lock();
    try {
      ended = true;
      arrived.signalAll();
      return chunks.isEmpty();
    } finally {
      lock.unlock();
    }
  }

  /** Fails the stream with {@code cause}, its queue dropped, unless it is over already; the reader wakes. */
  void fail(IOException cause) {
    lock.lock();
    try {
      if (failure == null && !(ended && chunks.isEmpty())) {
        failure = cause;
        chunks.clear();
      }
      arrived.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Stops the reader (its next read fails) and drops the queue. When at most {@code drainLimit}
   * bytes of a declared body are still to come and their window can be given, they are let in to
   * be dropped: the returned grant gives back the window of what was queued unread.
   */
  Abort abort(long drainLimit) {
    lock.lock();
    try {
      int queued = 0;
      for (ByteBuffer c : chunks) {
        queued += c.remaining();
      }
      long toCome = declaredLength - taken - queued;
      boolean endsByItself = ended || (declaredLength >= 0 && failure == null && toCome <= drainLimit
          && credit.canArriveWhole(declaredLength));
      StreamCredit.Grant give = !ended && endsByItself ? credit.drain(queued) : StreamCredit.Grant.NONE;
      if (failure == null) {
        failure = new IOException("aborted");
      }
      chunks.clear();
      arrived.signalAll();
      return new Abort(endsByItself, give);
    } finally {
      lock.unlock();
    }
  }

  /** Whether the stream ended normally with bytes still queued: it keeps its credit for them until they are read. */
  boolean unreadAtEnd() {
    lock.lock();
    try {
      return ended && failure == null && !chunks.isEmpty();
    } finally {
      lock.unlock();
    }
  }

  /** The stream's credit goes back to the budget, once: returns whether this call gave it back. */
  boolean release() {
    lock.lock();
    try {
      return credit.release();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits up to {@code idleRead} for bytes, the end or a failure, and takes up to {@code len}
   * bytes into {@code b}. A wait on a connection that sent nothing for
   * {@link H2Connection#STALL_NANOS} while this stream's window is open ends with that connection
   * in {@link Taken#stalled}; 0 bytes and no stalled connection mean the end of the body.
   *
   * @param connection the stream's connection as it is now (null before its head arrived)
   */
  Taken take(byte[] b, int off, int len, Duration idleRead, Supplier<H2Connection> connection) throws IOException {
    lock.lock();
    try {
      long deadline = ticker.read() + idleRead.toNanos();
      while (chunks.isEmpty() && !ended && failure == null) {
        long now = ticker.read();
        long left = deadline - now;
        if (left <= 0) {
          throw new SocketTimeoutException("no data for " + idleRead.toMillis() + " ms");
        }
        H2Connection c = connection.get();
        if (c != null && credit.windowOpen() && c.silentFor(now) >= H2Connection.STALL_NANOS) {
          return new Taken(0, StreamCredit.Grant.NONE, c);
        }
        try {
          arrived.awaitNanos(Math.min(left, STALL_CHECK_NANOS));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while reading");
        }
      }
      if (failure != null) {
        throw failure;
      }
      int n = 0;
      while (n < len && !chunks.isEmpty()) {
        ByteBuffer c = chunks.peek();
        int k = Math.min(len - n, c.remaining());
        c.get(b, off + n, k);
        n += k;
        if (!c.hasRemaining()) {
          chunks.poll();
        }
      }
      StreamCredit.Grant give = StreamCredit.Grant.NONE;
      if (n > 0 && !credit.released()) {
        taken += n;
        give = credit.taken(n);
      }
      return new Taken(n, give, null);
    } finally {
      lock.unlock();
    }
  }

  IOException failureOr(IOException fallback) {
    lock.lock();
    try {
      return failure != null ? failure : fallback;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Whether the whole body was read: its end arrived, or every declared byte (the end of the
   * stream may follow in a frame of its own, and must not be mistaken for an early stop).
   */
  boolean fullyRead() {
    lock.lock();
    try {
      return failure == null && chunks.isEmpty() && (ended || taken == declaredLength);
    } finally {
      lock.unlock();
    }
  }

  /** What an abort decided: whether the stream ends by itself, and the window to give back for the drain. */
  record Abort(boolean endsByItself, StreamCredit.Grant give) {}

  /** What a read took: {@code n} bytes and the window they earned, or the connection found stalled. */
  record Taken(int n, StreamCredit.Grant give, H2Connection stalled) {}
}
