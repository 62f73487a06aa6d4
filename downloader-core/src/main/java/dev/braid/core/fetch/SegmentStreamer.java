package dev.braid.core.fetch;

import dev.braid.core.LocalFileException;
import dev.braid.core.http.Exchange;
import dev.braid.core.io.PartFile;
import dev.braid.core.plan.Segment;
import dev.braid.core.plan.SegmentTable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.LongAdder;

/**
 * Copies a validated response body into the part file at the segment's position. Owned by one
 * worker; its one buffer is reused for every response that worker reads, so memory is bounded by
 * the number of connections, not by the file size (invariant 5).
 *
 * <p>Per byte there are two copies in user space: the socket read into {@link #buffer} and the
 * JDK's copy into its temporary direct buffer for the positional write. The HTTP client reads
 * large requests straight into the caller's array, bypassing its own session buffer.
 */
public final class SegmentStreamer {
  private final byte[] buffer;
  private final ByteBuffer view;
  private final SegmentTable table;
  private final PartFile part;
  private final LongAdder written;
  /** Bytes this streamer wrote; read by the driver to spot a connection far below the others. */
  private volatile long streamed;

  public SegmentStreamer(int bufferSize, SegmentTable table, PartFile part, LongAdder written) {
    this.buffer = new byte[bufferSize];
    this.view = ByteBuffer.wrap(buffer);
    this.table = table;
    this.part = part;
    this.written = written;
  }

  /**
   * Streams until the segment's end (which a split may move down while this runs), then releases
   * the exchange: closed for reuse when its body was read to the end, aborted when cut short.
   * For a segment of unknown length, the end of the body is the end of the segment.
   */
  public void stream(Exchange ex, Segment seg) throws TransientFailure, LocalFileException {
    long declared = ex.contentLength();
    long read = 0;
    boolean clean = false;
    try {
      InputStream in = ex.body();
      while (true) {
        long remaining = table.remaining(seg);
        if (remaining <= 0) {
          clean = declared >= 0 && read == declared;
          return;
        }
        int n;
        try {
          n = in.read(buffer, 0, (int) Math.min(buffer.length, remaining));
        } catch (IOException e) {
          throw TransientFailure.network("connection failed at byte " + table.position(seg) + ": " + RangeRequest.describe(e), e);
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
          write(allowed, table.position(seg));
          table.advance(seg, allowed);
          written.add(allowed);
          streamed += allowed;
        }
        if (allowed < n) {
          return;
        }
      }
    } catch (IOException e) {
      throw TransientFailure.network("cannot read the response: " + RangeRequest.describe(e), e);
    } finally {
      if (clean) {
        ex.close();
      } else {
        ex.abort();
      }
    }
  }

  /** Bytes written by this streamer so far (single writer: its worker). */
  public long streamed() {
    return streamed;
  }

  private void write(int length, long position) throws LocalFileException {
    view.clear().limit(length);
    try {
      part.write(view, position);
    } catch (IOException e) {
      throw new LocalFileException("cannot write " + part.path() + ": " + RangeRequest.describe(e), e);
    }
  }
}
