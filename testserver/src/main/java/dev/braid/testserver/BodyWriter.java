package dev.braid.testserver;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sends response bodies for one connection: reads the content in buffer-sized pieces, frames them,
 * paces them by the rate limit, counts them, and carries out the plan's faults.
 */
final class BodyWriter {
  private static final int BUFFER_SIZE = 16 * 1024;
  private static final long STALL_POLL_MILLIS = 50;
  private static final byte[] CRLF = {'\r', '\n'};
  private static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

  private final Connection connection;
  private final OutputStream out;
  private final AtomicLong serverBodyBytes;
  private final byte[] buffer = new byte[BUFFER_SIZE];
  private final Throttle throttle = new Throttle();
  /** The rate this connection is held to whatever it serves, 0 for none; decided by its first body. */
  private long connectionRate = -1;

  BodyWriter(Connection connection, OutputStream out, AtomicLong serverBodyBytes) {
    this.connection = connection;
    this.out = out;
    this.serverBodyBytes = serverBodyBytes;
  }

  /**
   * Sends the body; returns false if the connection is finished (a fault ended it, the body was
   * close-delimited, or the client left during a stall), true if it can carry another request, in
   * which case the caller flushes the end of the body.
   */
  boolean write(BodyPlan plan) throws IOException, InterruptedException {
    long stallAt = plan.stall() == null ? -1 : plan.stall().afterBytes;
    long endAt = plan.ending() == null ? plan.length() : plan.ending().afterBytes;
    long sent = 0;
    long trickle = 0;
    if (connectionRate < 0) {
      connectionRate = plan.offset() == 0 ? plan.resource().knobs().slowFromStartRate() : 0;
    }
    while (true) {
      if (sent == stallAt && plan.stall().kind == Fault.Kind.TRICKLE) {
        trickle = plan.stall().rate;
      } else if (sent == stallAt && !stall(plan.stall())) {
        return false;
      }
      if (sent >= endAt) {
        break;
      }
      long limit = stallAt > sent ? Math.min(stallAt, endAt) : endAt;
      int n = (int) Math.min(buffer.length, limit - sent);
      long rate = trickle > 0 ? trickle : connectionRate > 0 ? connectionRate : plan.resource().knobs().rateLimit();
      if (rate > 0) {
        int piece = plan.resource().knobs().pieceSize();
        n = Math.min(n, piece > 0 ? Math.min(piece, buffer.length) : Throttle.pieceSize(rate, buffer.length));
        throttle.acquire(n, rate, piece > 0);
      }
      fill(plan.content(), plan.offset() + sent, n);
      plan.resource().faults().corrupt(plan.offset() + sent, buffer, n);
      sendPiece(plan, n);
      sent += n;
    }
    if (plan.ending() != null) {
      if (plan.ending().kind == Fault.Kind.DROP) {
        connection.closeAbruptly();
      } else {
        connection.closeGracefully();
      }
      return false;
    }
    if (plan.framing() == BodyPlan.Framing.CLOSE) {
      connection.closeGracefully();
      return false;
    }
    if (plan.framing() == BodyPlan.Framing.CHUNKED) {
      out.write(LAST_CHUNK);
    }
    return true;
  }

  /** Copies content into the buffer; positions past the end (extra bytes) become zeros. */
  private void fill(Content content, long position, int n) {
    int available = (int) Math.max(0, Math.min(n, content.size() - position));
    if (available > 0) {
      content.read(position, buffer, 0, available);
    }
    Arrays.fill(buffer, available, n, (byte) 0);
  }

  private void sendPiece(BodyPlan plan, int n) throws IOException {
    // Count before writing so that a client that has read the bytes always sees them counted;
    // undo it if the write fails.
    long slow = connectionRate > 0 ? n : 0;
    plan.resource().sent().addBody(n);
    plan.resource().sent().addSlowConnection(slow);
    serverBodyBytes.addAndGet(n);
    try {
      if (plan.framing() == BodyPlan.Framing.CHUNKED) {
        out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(buffer, 0, n);
        out.write(CRLF);
      } else {
        out.write(buffer, 0, n);
      }
      // Flush every piece: faults and the rate limit act on what actually reached the socket.
      out.flush();
    } catch (IOException e) {
      plan.resource().sent().addBody(-n);
      plan.resource().sent().addSlowConnection(-slow);
      serverBodyBytes.addAndGet(-n);
      throw e;
    }
  }

  /** Pauses, watching for the client to leave; returns false if it did. */
  private boolean stall(Fault stall) throws IOException, InterruptedException {
    out.flush();
    long deadline = System.nanoTime() + stall.pause.toNanos();
    for (long left; (left = deadline - System.nanoTime()) > 0; ) {
      long step = Math.min(STALL_POLL_MILLIS, Math.max(1, left / 1_000_000));
      if (connection.awaitClientGone(step)) {
        return false;
      }
    }
    return true;
  }
}
