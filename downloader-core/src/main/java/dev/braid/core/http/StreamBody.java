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
 * stream. Flow control bounds the queue: the stream's window is given back only for bytes the
 * worker has read, so at most one window (16 MiB) waits here per stream, whatever the file size.
 */
final class StreamBody extends InputStream implements AsyncResponseConsumer<Void> {
  private final CompletableFuture<HttpResponse> head = new CompletableFuture<>();
  private final Duration idleRead;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition arrived = lock.newCondition();
  private final ArrayDeque<ByteBuffer> chunks = new ArrayDeque<>();
  private CapacityChannel capacity;
  private int unreturned;
  private boolean ended;
  private IOException failure;
  private FutureCallback<Void> done;
  private long declaredLength = -1;
  private long taken;
  /** After an abort that chose to drain: data still arriving is dropped and its window given back. */
  private boolean discarding;

  StreamBody(Duration idleRead) {
    this.idleRead = idleRead;
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

  // ---- the reactor's side

  @Override
  public void consumeResponse(HttpResponse response, EntityDetails entity, HttpContext context, FutureCallback<Void> callback) {
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
      callback.completed(null);
    }
    head.complete(response);
  }

  @Override
  public void informationResponse(HttpResponse response, HttpContext context) {}

  @Override
  public void updateCapacity(CapacityChannel channel) throws IOException {
    int give;
    lock.lock();
    try {
      capacity = channel;
      give = unreturned;
      unreturned = 0;
    } finally {
      lock.unlock();
    }
    if (give > 0) {
      channel.update(give);
    }
  }

  @Override
  public void consume(ByteBuffer src) throws IOException {
    ByteBuffer copy = ByteBuffer.allocate(src.remaining());
    copy.put(src).flip();
    CapacityChannel drop;
    lock.lock();
    try {
      drop = discarding ? capacity : null;
      if (!discarding) {
        chunks.add(copy);
      }
      arrived.signalAll();
    } finally {
      lock.unlock();
    }
    if (drop != null) {
      drop.update(copy.remaining());
    }
  }

  @Override
  public void streamEnd(List<? extends Header> trailers) {
    FutureCallback<Void> callback;
    lock.lock();
    try {
      ended = true;
      callback = done;
      arrived.signalAll();
    } finally {
      lock.unlock();
    }
    if (callback != null) {
      callback.completed(null);
    }
  }

  @Override
  public void failed(Exception cause) {
    fail(cause instanceof IOException io ? io : new IOException(cause.getMessage(), cause));
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
      boolean windowSuffices = capacity != null || declaredLength <= H2Transport.STREAM_WINDOW;
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
    if (give != null && queued > 0) {
      try {
        // what was queued but never read gets its window back, so the rest can arrive
        give.update(queued);
      } catch (IOException e) {
        endsByItself = false;
      }
    }
    head.completeExceptionally(new IOException("aborted"));
    return endsByItself;
  }

  @Override
  public void releaseResources() {}

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
    CapacityChannel give;
    lock.lock();
    try {
      long deadline = System.nanoTime() + idleRead.toNanos();
      while (chunks.isEmpty() && !ended && failure == null) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new SocketTimeoutException("no data for " + idleRead.toMillis() + " ms");
        }
        try {
          arrived.awaitNanos(left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while reading");
        }
      }
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
      if (n == 0) {
        return -1;
      }
      taken += n;
      give = capacity;
      if (give == null) {
        unreturned += n;
      }
    } finally {
      lock.unlock();
    }
    if (give != null) {
      // the window grows back only by what the worker took: the queue holds at most a window
      give.update(n);
    }
    return n;
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
}
