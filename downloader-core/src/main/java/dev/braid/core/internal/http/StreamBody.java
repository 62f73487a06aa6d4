package dev.braid.core.internal.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;
import org.apache.hc.core5.http.nio.CapacityChannel;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * One HTTP/2 stream's body, handed from the I/O reactor to the worker thread that reads it. The
 * reactor only copies each DATA frame into the stream's {@link StreamQueue} ({@link #consume});
 * the worker reads from the queue and writes to the file, so a slow disk never stalls the
 * reactor, which serves every stream. Flow control bounds the queue: the stream's
 * {@link StreamCredit} (its window plus its queue) comes from the client's {@link WindowBudget},
 * and window is given back only for bytes the worker has read, so what all streams hold together
 * stays within the budget, whatever the file size and however many streams there are. A response
 * the worker does not read (a 200 to a ranged request, aborted) holds at most the initial window.
 *
 * <p>Nothing thrown on the reactor's side escapes to the reactor (an error there would end the
 * connection, or the reactor thread, under every stream): it fails this stream instead, and the
 * worker's next read throws it. A reader waiting on a connection that sends nothing at all for
 * {@link H2Connection#STALL_NANOS}, while its own window is open, gives the connection up.
 *
 * <p>Threads: the reactor calls the consumer's methods, the worker {@link #read} and
 * {@link #finish}, any thread {@link #fail} and {@link #abort}. The queue holds the state under
 * its lock; this class sends the window updates it returns and calls into the connection, with
 * no lock held.
 */
final class StreamBody extends InputStream implements AsyncResponseConsumer<Void> {
  private final CompletableFuture<HttpResponse> head = new CompletableFuture<>();
  private final Duration idleRead;
  private final StreamQueue queue;
  private final H2Connections connections;
  /** Set by the reactor with the head; called when the stream is over. */
  private volatile FutureCallback<Void> done;
  /** The connection the stream runs on, once its head arrived. */
  private volatile H2Connection connection;

  StreamBody(Duration idleRead, WindowBudget budget, H2Connections connections) {
    this.idleRead = idleRead;
    this.queue = new StreamQueue(budget, connections.ticker);
    this.connections = connections;
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
    return queue.declaredLength();
  }

  /** The body's length when the head did not declare it (a 206 without Content-Length). */
  void declareLength(long length) {
    queue.declareLength(length);
  }

  // ---- the reactor's side: nothing thrown here may reach the reactor

  @Override
  public void consumeResponse(HttpResponse response, EntityDetails entity, HttpContext context, FutureCallback<Void> callback) {
    try {
      H2Connection c = connections.of(context);
      if (c != null) {
        c.add(this, connections.ticker.read());
        connection = c;
      }
      done = callback;
      queue.head(entity != null, entity == null ? -1 : entity.getContentLength());
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
      int give = queue.credit().channelArrived(channel);
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
        c.touch(connections.ticker.read());
      }
      CapacityChannel drop = queue.offer(src);
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
      if (queue.end()) {
        release();
      }
      FutureCallback<Void> callback = done;
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
    queue.fail(cause);
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
    StreamQueue.Abort a = queue.abort(drainLimit);
    release();
    boolean endsByItself = a.endsByItself();
    if (a.give().any()) {
      try {
        // what was queued but never read gets its window back, so the rest can arrive (and is dropped)
        a.give().channel().update(a.give().bytes());
      } catch (IOException e) {
        endsByItself = false;
      }
    }
    head.completeExceptionally(new IOException("aborted"));
    return endsByItself;
  }

  /** The stream is over for the worker (read to its end, failed or aborted): its credit goes back, once. */
  private void release() {
    if (!queue.release()) {
      return;
    }
    H2Connection c = connection;
    if (c != null) {
      c.remove(this);
    }
  }

  @Override
  public void releaseResources() {
    // a stream that ended normally keeps its credit for the bytes still queued, until they are read
    if (!queue.unreadAtEnd()) {
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
    StreamQueue.Taken t = queue.take(b, off, len, idleRead, () -> connection);
    if (t.stalled() != null) {
      t.stalled().abandon(new H2Stalled(H2Connection.STALL_NANOS));
      throw queue.failureOr(new H2Stalled(H2Connection.STALL_NANOS));
    }
    if (t.n() == 0) {
      // the end: every byte was read
      release();
      return -1;
    }
    if (t.give().any()) {
      // the window grows back only by what the worker took, up to the stream's share of the budget
      t.give().channel().update(t.give().bytes());
    }
    return t.n();
  }

  /**
   * Whether the whole body was read: its end arrived, or every declared byte (the end of the
   * stream may follow in a frame of its own, and must not be mistaken for an early stop).
   */
  boolean fullyRead() {
    return queue.fullyRead();
  }

  /** The worker is done with a fully read body: its credit goes back (the end of stream may still be on its way). */
  void finish() {
    release();
  }
}
