package dev.braid.core.internal.http;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.impl.io.HttpRequestExecutor;
import org.apache.hc.core5.http.io.HttpClientConnection;
import org.apache.hc.core5.http.io.HttpResponseInformationCallback;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.util.Timeout;

/**
 * Sends a request on a connection that is already open and waits for the response head: the one
 * place that sees both the connection and the moment the head arrives. It applies two of the
 * tiered timeouts: the time-to-first-byte limit while waiting for the head, then the idle-read
 * limit for the body that follows (HttpClient alone has one socket timeout for both). It records
 * the time to first byte and whether the request ran on a connection it did not open itself
 * (one that carried requests before, or one warmed ahead by {@link ConnectionWarmup}).
 */
final class TimedRequestExecutor extends HttpRequestExecutor {
  private final Duration firstByteLimit;
  private final Timeout firstByte;
  private final Timeout idleRead;

  TimedRequestExecutor(Duration firstByte, Duration idleRead) {
    this.firstByteLimit = firstByte;
    this.firstByte = Timeout.of(firstByte);
    this.idleRead = Timeout.of(idleRead);
  }

  @Override
  public ClassicHttpResponse execute(ClassicHttpRequest request, HttpClientConnection conn,
      HttpResponseInformationCallback informationCallback, HttpContext context) throws IOException, HttpException {
    // the classic client connects on the thread that then sends the request
    boolean reused = !PhaseRecorder.takeOpenedHere();
    conn.setSocketTimeout(firstByte);
    long start = System.nanoTime();
    ClassicHttpResponse response;
    try {
      response = super.execute(request, conn, informationCallback, context);
    } catch (SocketTimeoutException e) {
      SocketTimeoutException named = new SocketTimeoutException("no response within "
          + firstByteLimit.toMillis() / 1000.0 + " s of the request (time to first byte)");
      named.initCause(e);
      throw named;
    }
    PhaseRecorder.current().firstByte(System.nanoTime() - start, reused);
    conn.setSocketTimeout(idleRead);
    return response;
  }
}
