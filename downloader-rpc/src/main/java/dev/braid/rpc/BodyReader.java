package dev.braid.rpc;

import io.undertow.server.HttpServerExchange;
import io.undertow.server.RequestTooBigException;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.xnio.IoUtils;
import org.xnio.XnioExecutor;

/**
 * Reads POST bodies as their bytes arrive, so that what a connection holds is what it sent, never
 * what it declared: a declared length over the limit is refused at once (413) and nothing is
 * read. Each body's first {@value #FREE_BYTES} bytes are its own (every ordinary call fits); bytes
 * past them come from one budget shared by every body in progress, held until the call is
 * answered, and a body the budget cannot take is refused (503). A body that has not arrived in
 * full within the request timeout has its connection closed.
 *
 * <p>Threads: Undertow calls the receiver back on the connection's I/O thread; the timer runs
 * there too. The budget is shared by all I/O threads (an atomic count).
 */
final class BodyReader {
  /** Bytes of each body outside the shared budget: calls other than uploads (addTorrent, addMetalink) are smaller. */
  static final int FREE_BYTES = 8 * 1024;

  private final int maxBytes;
  private final long budgetBytes;
  private final Duration timeout;
  private final AtomicLong held = new AtomicLong();

  /**
   * Bodies up to {@code maxBytes} each, {@code budgetBytes} past their free part for all at once
   * (at least {@code maxBytes}, so that one body of the limit always fits), within {@code timeout}.
   */
  BodyReader(int maxBytes, long budgetBytes, Duration timeout) {
    if (budgetBytes < maxBytes) {
      throw new IllegalArgumentException("the budget must hold one body of the limit");
    }
    this.maxBytes = maxBytes;
    this.budgetBytes = budgetBytes;
    this.timeout = timeout;
  }

  /** Reads {@code ex}'s body, then hands it to {@code whole} (on the I/O thread); or answers the refusal itself. */
  void read(HttpServerExchange ex, BiConsumer<HttpServerExchange, byte[]> whole) {
    if (ex.getRequestContentLength() > maxBytes) {
      refuse(ex, 413);
      return;
    }
    new Body(ex).start(whole);
  }

  private static void refuse(HttpServerExchange ex, int status) {
    // the rest of the body is not read: the connection cannot carry another request
    ex.setPersistent(false);
    ex.setStatusCode(status);
    ex.endExchange();
  }

  /** One body in progress: its bytes, its share of the budget, its deadline. */
  private final class Body {
    private final HttpServerExchange ex;
    private final ByteArrayOutputStream bytes;
    private long claimed;
    private boolean complete;
    private XnioExecutor.Key deadline;

    Body(HttpServerExchange ex) {
      this.ex = ex;
      long declared = ex.getRequestContentLength();
      // grows as bytes come: a stalled body costs what it sent
      this.bytes = new ByteArrayOutputStream((int) Math.min(1024, Math.max(declared, 64)));
    }

    void start(BiConsumer<HttpServerExchange, byte[]> whole) {
      deadline = ex.getIoThread().executeAfter(this::expire, timeout.toMillis(), TimeUnit.MILLISECONDS);
      ex.addExchangeCompleteListener((e, next) -> {
        end();
        next.proceed();
      });
      ex.getRequestReceiver().receivePartialBytes((e, chunk, last) -> {
        if (complete) {
          return;
        }
        if (bytes.size() + chunk.length > maxBytes) {
          end();
          refuse(e, 413);
          return;
        }
        if (!claim(bytes.size() + chunk.length)) {
          end();
          refuse(e, 503);
          return;
        }
        bytes.write(chunk, 0, chunk.length);
        if (last) {
          complete = true;
          deadline.remove();
          whole.accept(e, bytes.toByteArray());
        }
      }, (e, failure) -> {
        end();
        e.setPersistent(false);
        e.setStatusCode(failure instanceof RequestTooBigException ? 413 : 400);
        e.endExchange();
      });
    }

    /** Claims the budget for a body of {@code size} bytes so far; false if the budget has no room. */
    private boolean claim(long size) {
      long more = Math.max(0, size - FREE_BYTES) - claimed;
      if (more <= 0) {
        return true;
      }
      if (held.addAndGet(more) > budgetBytes) {
        held.addAndGet(-more);
        return false;
      }
      claimed += more;
      return true;
    }

    /** The body's share goes back to the budget; once, whichever way the exchange ends. */
    private void end() {
      complete = true;
      deadline.remove();
      held.addAndGet(-claimed);
      claimed = 0;
    }

    private void expire() {
      if (!complete) {
        end();
        IoUtils.safeClose(ex.getConnection());
      }
    }
  }
}
