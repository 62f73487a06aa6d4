package dev.braid.core.internal.fetch;

import dev.braid.core.FailureDetail;
import dev.braid.core.LocalFileException;
import dev.braid.core.internal.http.Exchange;
import dev.braid.core.internal.http.Protocol;
import dev.braid.core.internal.io.SegmentSink;
import dev.braid.core.internal.limit.Throttle;
import dev.braid.core.internal.plan.Segment;
import dev.braid.core.internal.plan.SegmentTable;
import dev.braid.core.internal.verify.BlockTracker;
import dev.braid.core.time.Ticker;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Copies a validated response body into the part file (or another {@link SegmentSink}) at the segment's position. Owned by one
 * worker; its one buffer is reused for every response that worker reads, so memory is bounded by
 * the number of connections, not by the file size (invariant 5).
 *
 * <p>Per byte there are two copies in user space: the socket read into {@link #buffer} and the
 * JDK's copy into its temporary direct buffer for the positional write. The HTTP client reads
 * large requests straight into the caller's array, bypassing its own session buffer. A body that
 * arrives slower than it is read is read in batches ({@link ReadPacing}), not per few packets.
 */
public final class SegmentStreamer {
  /**
   * Size of a connection's first request (and of the probe), before its throughput is known: small,
   * so that the splits that hand work to the other connections land beyond it.
   */
  public static final long FIRST_REQUEST = 4L << 20;
  static final long MAX_REQUEST = 64L << 20;
  /** Smaller first requests would cost a round trip per few hundred KiB on a long path. */
  public static final long MIN_FIRST_REQUEST = 256L << 10;
  static final double REQUEST_SECONDS = 4;

  private final byte[] buffer;
  private final ByteBuffer view;
  private final SegmentTable table;
  private final SegmentSink part;
  private final LongAdder written;
  private final Throttle throttle;
  /** Sums whole blocks as they are written, for the resume check; null when the download keeps no sums. */
  private final BlockTracker tracker;
  /** Bytes this streamer wrote; read by the driver to spot a connection far below the others. */
  private volatile long streamed;
  /** Time spent streaming, for the size of the next request. */
  private long streamingNanos;
  private final Ticker ticker;
  private final ReadPacing pacing;

  public SegmentStreamer(int bufferSize, SegmentTable table, SegmentSink part, LongAdder written, Throttle throttle,
      BlockTracker tracker, Ticker ticker) {
    this.ticker = ticker;
    this.throttle = throttle;
    this.tracker = tracker;
    this.buffer = new byte[bufferSize];
    this.view = ByteBuffer.wrap(buffer);
    this.pacing = new ReadPacing(bufferSize);
    this.table = table;
    this.part = part;
    this.written = written;
  }

  /**
   * Streams the owner's current request (see {@link SegmentTable#requestEnd}) until its end or the
   * segment's end, whichever comes first (a split may move the latter down while this runs), then
   * releases the exchange: closed for reuse when its body was read to the end, aborted when cut
   * short. For a segment of unknown length, the end of the body is the end of the segment.
   */
  public void stream(Exchange ex, Segment seg) throws TransientFailure, LocalFileException {
    long declared = ex.contentLength();
    long read = 0;
    boolean clean = false;
    long started = ticker.read();
    // only the owner (this thread) moves the position, so it is read once, not per buffer
    long position = table.position(seg);
    // HTTP/2 bodies come from buffers the reactor fills; a plain socket's read returns all it holds
    boolean paced = ex.protocol() == Protocol.HTTP_1_1;
    boolean wholeReads = paced && "http".equalsIgnoreCase(ex.finalUri().getScheme());
    try {
      InputStream in = ex.body();
      while (true) {
        long remaining = table.remainingInRequest(seg);
        if (remaining <= 0) {
          clean = declared >= 0 && read == declared;
          return;
        }
        int n;
        int granted = throttle.acquire((int) Math.min(buffer.length, remaining));
        try {
          n = in.read(buffer, 0, granted);
          if (n < granted) {
            throttle.refund(granted - Math.max(n, 0));
          }
        } catch (IOException e) {
          throw TransientFailure.network("connection failed at byte " + position + ": " + RangeRequest.describe(e), e);
        }
        if (n < 0) {
          if (table.openEnded(seg)) {
            table.endAtPosition(seg);
            clean = true;
            return;
          }
          throw TransientFailure.network("the server closed the connection " + remaining + " bytes before the end of the range", null);
        }
        read += n;
        int allowed = table.claim(seg, n);
        if (allowed > 0) {
          write(allowed, position);
          table.advance(seg, allowed);
          position += allowed;
          written.add(allowed);
          streamed += allowed;
        }
        if (allowed < n) {
          return;
        }
        if (paced) {
          long pause = pacing.pauseAfter(n, granted, wholeReads, bytesPerSecond(started));
          if (pause > 0) {
            // a halt or a retirement aborts the exchange meanwhile: the next read fails at once
            LockSupport.parkNanos(pause);
          }
        }
      }
    } catch (IOException e) {
      throw TransientFailure.network("cannot read the response: " + RangeRequest.describe(e), e);
    } finally {
      streamingNanos += ticker.read() - started;
      if (clean) {
        ex.close();
      } else {
        ex.abort();
      }
    }
  }

  /**
   * How many bytes the owner should ask for next: about {@link #REQUEST_SECONDS} seconds of this
   * connection's throughput so far, between {@code first} and {@link #MAX_REQUEST}; {@code first}
   * while the throughput is unknown.
   * Bounded requests let a split take the part beyond the in-flight request instead of cutting a
   * response short; long enough ones keep the request count (and a round trip each) low.
   */
  public long nextRequestSize(long first) {
    double rate = bytesPerSecond();
    return rate <= 0 ? first : (long) Math.max(first, Math.min(MAX_REQUEST, rate * REQUEST_SECONDS));
  }

  /**
   * The first request of a connection to a file of {@code length} bytes shared by
   * {@code connections}: at most half a connection's share, so that every connection finds a
   * piece beyond the requests already in flight (an unmeasured request is never cut), between
   * {@link #MIN_FIRST_REQUEST} and {@link #FIRST_REQUEST}.
   */
  public static long firstRequestSize(long length, int connections) {
    if (length <= 0 || connections <= 0) {
      return FIRST_REQUEST;
    }
    return Math.max(MIN_FIRST_REQUEST, Math.min(FIRST_REQUEST, length / (2L * connections)));
  }

  /** This connection's throughput while it streamed, or 0 before its first response. */
  public double bytesPerSecond() {
    return streamingNanos <= 0 ? 0 : streamed * 1e9 / streamingNanos;
  }

  /** The throughput so far, the response being read since {@code started} included. */
  private double bytesPerSecond(long started) {
    long nanos = streamingNanos + ticker.read() - started;
    return nanos <= 0 ? 0 : streamed * 1e9 / nanos;
  }

  /** Bytes written by this streamer so far (single writer: its worker). */
  public long streamed() {
    return streamed;
  }

  private void write(int length, long position) throws LocalFileException {
    view.clear().limit(length);
    try {
      part.write(view, position);
      if (tracker != null) {
        tracker.wrote(buffer, 0, length, position);
      }
    } catch (IOException e) {
      throw new LocalFileException("cannot write " + part.name() + ": " + RangeRequest.describe(e), e,
          part.outOfSpace() ? FailureDetail.DISK_FULL : FailureDetail.NONE);
    }
  }
}
