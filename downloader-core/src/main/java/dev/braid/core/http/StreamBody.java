package dev.braid.core.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;
import org.apache.hc.core5.http.nio.CapacityChannel;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * One HTTP/2 stream's body, handed from the I/O reactor to the worker thread that reads it. The
 * reactor only copies each DATA frame into the queue ({@link #consume}); the worker reads from the
 * queue and writes to the file, so a slow disk never stalls the reactor, which serves every
 * stream. Flow control bounds the queue: the stream's credit (its window plus its queue) comes
 * from the client's {@link WindowBudget}, and window is given back only for bytes the worker has
 * read, so what all streams hold together stays within the budget, whatever the file size and
 * however many streams there are. A response the worker does not read (a 200 to a ranged
 * request, aborted) holds at most the initial window.
 *
 * <p>Nothing thrown on the reactor's side escapes to the reactor (an error there would end the
 * connection, or the reactor thread, under every stream): it fails this stream instead, and the
 * worker's next read throws it. A reader waiting on a connection that sends nothing at all for
 * {@link H2Connection#STALL_NANOS}, while its own window is open, gives the connection up.
 */
final class StreamBody extends InputStream implements AsyncResponseConsumer<Void> {
  /** How often a waiting reader looks whether its connection has stalled. */
  private static final long STALL_CHECK_NANOS = 250_000_000L;

  private final CompletableFuture<HttpResponse> head = new CompletableFuture<>();
  private final Duration idleRead;
  private final WindowBudget budget;
  private final H2Connections connections;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition arrived = lock.newCondition();
  private final ArrayDeque<ByteBuffer> chunks = new ArrayDeque<>();
  private CapacityChannel capacity;
  /** Window this stream may give back but could not yet: no capacity channel so far. Part of {@link #credit}. */
  private int unreturned;
  /** The window the server may still fill plus the bytes queued: what this stream holds of the budget. */
  private long credit;
  /** Set once the credit went back to the budget; the stream holds nothing from then on. */
  private boolean released;
  private boolean ended;
  private IOException failure;
  private FutureCallback<Void> done;
  private long declaredLength = -1;
  private long taken;
  /** After an abort that chose to drain: data still arriving is dropped and its window given back. */
  private boolean discarding;
  /** The connection the stream runs on, once its head arrived. */
  private volatile H2Connection connection;

  StreamBody(Duration idleRead, WindowBudget budget, H2Connections connections) {
    this.idleRead = idleRead;
    this.budget = budget;
    this.connections = connections;
    budget.open();
    credit = budget.initialWindow();
  }

  /** Waits for the response head; a failure of the exchange is rethrown as it was. */
  HttpResponse awaitHead(Duration limit) throws IOException {
    try {
      return head.get(limit.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new SocketTimeoutException("no response within " + limit.toMillis() + " ms");
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof IOException io) {
        throw io;
      }
      throw new IOException(c.getMessage(), c);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for a response");
    }
  }

  /** The connection it runs on, once the head arrived; null before (or when the reactor did not report it). */
  H2Connection connection() {
    return connection;
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

  // ---- the reactor's side: nothing thrown here may reach the reactor

  @Override
  public void consumeResponse(HttpResponse response, EntityDetails entity, HttpContext context, FutureCallback<Void> callback) {
    try {
      H2Connection c = connections.of(context);
      if (c != null) {
        c.add(this, System.nanoTime());
        connection = c;
      }
      lock.lock();
      try {
        done = callback;
        if (entity == null) {
          ended = true;
        } else {
          declaredLength = entity.getContentLength();
        }
      } finally {
        lock.unlock();
      }
      if (entity == null) {
        release();
        callback.completed(null);
      }
      head.complete(response);
    } catch (Throwable t) {
      internalFailure(t);
    }
  }

  @Override
  public void informationResponse(HttpResponse response, HttpContext context) {}

  @Override
  public void updateCapacity(CapacityChannel channel) {
    try {
      int give;
      lock.lock();
      try {
        capacity = channel;
        // only what the worker's reads earned: a stream nobody reads keeps its initial window
        give = unreturned;
        unreturned = 0;
      } finally {
        lock.unlock();
      }
      if (give > 0) {
        channel.update(give);
      }
    } catch (Throwable t) {
      internalFailure(t);
    }
  }

  @Override
  public void consume(ByteBuffer src) {
    try {
      int n = src.remaining();
      H2Connection c = connection;
      if (c != null) {
        c.touch(System.nanoTime());
      }
      CapacityChannel drop;
      lock.lock();
      try {
        drop = discarding ? capacity : null;
        if (failure == null && !released) {
          ByteBuffer copy = ByteBuffer.allocate(n);
          copy.put(src).flip();
          chunks.add(copy);
          arrived.signalAll();
        } else {
          src.position(src.limit());
        }
      } finally {
        lock.unlock();
      }
      if (drop != null && n > 0) {
        drop.update(n);
      }
    } catch (Throwable t) {
      internalFailure(t);
    }
  }

  @Override
  public void streamEnd(List<? extends Header> trailers) {
    try {
      FutureCallback<Void> callback;
      boolean drained;
      lock.lock();
      try {
        ended = true;
        callback = done;
        drained = chunks.isEmpty();
        arrived.signalAll();
      } finally {
        lock.unlock();
      }
      if (drained) {
        release();
      }
      if (callback != null) {
        callback.completed(null);
      }
    } catch (Throwable t) {
      internalFailure(t);
    }
  }

  @Override
  public void failed(Exception cause) {
    fail(cause instanceof IOException io ? io : new IOException(cause.getMessage(), cause));
  }

  /**
   * An error of ours on the reactor's side (out of memory included): the stream fails, its queue
   * is dropped, and the worker sees the failure on its next read, never a stream that just stops.
   */
  private void internalFailure(Throwable t) {
    try {
      fail(new IOException("internal error on the HTTP/2 stream: " + t, t));
    } catch (Throwable ignored) {
      // nothing more can be done here without throwing into the reactor
    }
  }

  /** Ends the reader's wait with {@code cause} (an abort from another thread, or the stream's failure). */
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
    release();
    head.completeExceptionally(cause);
  }

  /**
   * Stops the reader (its next read fails). When at most {@code drainLimit} bytes of the body are
   * still to come, they are let in and dropped so the stream ends normally; httpclient5 closes the
   * shared connection when a request is cancelled, and draining a little is cheaper than a new
   * connection. Returns whether the stream ends by itself (drained or already over); if not, the
   * caller cancels it.
   */
  boolean abort(long drainLimit) {
    CapacityChannel give = null;
    int queued = 0;
    boolean endsByItself;
    lock.lock();
    try {
      for (ByteBuffer c : chunks) {
        queued += c.remaining();
      }
      long toCome = declaredLength - taken - queued;
      // without a capacity channel no window can be given back: only a body within the first
      // window arrives whole
      boolean windowSuffices = capacity != null || declaredLength <= budget.initialWindow();
      endsByItself = ended
          || (declaredLength >= 0 && failure == null && toCome <= drainLimit && windowSuffices);
      if (!ended && endsByItself) {
        discarding = true;
        give = capacity;
        queued += unreturned;
        unreturned = 0;
      }
      if (failure == null) {
        failure = new IOException("aborted");
      }
      chunks.clear();
      arrived.signalAll();
    } finally {
      lock.unlock();
    }
    release();
    if (give != null && queued > 0) {
      try {
        // what was queued but never read gets its window back, so the rest can arrive (and is dropped)
        give.update(queued);
      } catch (IOException e) {
        endsByItself = false;
      }
    }
    head.completeExceptionally(new IOException("aborted"));
    return endsByItself;
  }

  /** The stream is over for the worker (read to its end, failed or aborted): its credit goes back, once. */
  private void release() {
    long back;
    lock.lock();
    try {
      if (released) {
        return;
      }
      released = true;
      back = credit;
      credit = 0;
    } finally {
      lock.unlock();
    }
    budget.close(back);
    H2Connection c = connection;
    if (c != null) {
      c.remove(this);
    }
  }

  @Override
  public void releaseResources() {
    boolean unread;
    lock.lock();
    try {
      // a stream that ended normally keeps its credit for the bytes still queued, until they are read
      unread = ended && failure == null && !chunks.isEmpty();
    } finally {
      lock.unlock();
    }
    if (!unread) {
      release();
    }
  }

  // ---- the worker's side

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    int n = 0;
    int give = 0;
    CapacityChannel channel;
    H2Connection stalled = null;
    lock.lock();
    try {
      long deadline = System.nanoTime() + idleRead.toNanos();
      while (chunks.isEmpty() && !ended && failure == null) {
        long now = System.nanoTime();
        long left = deadline - now;
        if (left <= 0) {
          throw new SocketTimeoutException("no data for " + idleRead.toMillis() + " ms");
        }
        H2Connection c = connection;
        if (c != null && credit - unreturned > 0 && c.silentFor(now) >= H2Connection.STALL_NANOS) {
          stalled = c;
          break;
        }
        try {
          arrived.awaitNanos(Math.min(left, STALL_CHECK_NANOS));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while reading");
        }
      }
      if (stalled == null) {
        if (failure != null) {
          throw failure;
        }
        while (n < len && !chunks.isEmpty()) {
          ByteBuffer c = chunks.peek();
          int k = Math.min(len - n, c.remaining());
          c.get(b, off + n, k);
          n += k;
          if (!c.hasRemaining()) {
            chunks.poll();
          }
        }
        if (n > 0 && !released) {
          taken += n;
          credit -= n;
          give = budget.refill(credit, n);
          credit += give;
          if (capacity == null) {
            unreturned += give;
            give = 0;
          }
        }
      }
      channel = capacity;
    } finally {
      lock.unlock();
    }
    if (stalled != null) {
      stalled.abandon(new H2Stalled(H2Connection.STALL_NANOS));
      throw failureOr(new H2Stalled(H2Connection.STALL_NANOS));
    }
    if (n == 0) {
      // the end: every byte was read
      release();
      return -1;
    }
    if (give > 0) {
      // the window grows back only by what the worker took, up to the stream's share of the budget
      channel.update(give);
    }
    return n;
  }

  private IOException failureOr(IOException fallback) {
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

  /** The worker is done with a fully read body: its credit goes back (the end of stream may still be on its way). */
  void finish() {
    release();
  }
}
