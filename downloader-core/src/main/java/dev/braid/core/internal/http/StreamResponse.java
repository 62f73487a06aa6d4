package dev.braid.core.internal.http;

import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Future;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpResponse;

/**
 * A response on an HTTP/2 stream. Aborting it drains a short remainder (at most
 * {@value #DRAIN_LIMIT} bytes) rather than cancelling the request: httpclient5 5.6 closes the
 * shared connection (gracefully: streams in flight finish) whenever a request is cancelled, and a
 * new connection costs more than a few MiB on the one that exists. A longer remainder is cancelled.
 */
final class StreamResponse implements OpenResponse {
  static final long DRAIN_LIMIT = 8L << 20;

  private final HttpResponse head;
  private final StreamBody body;
  private final Future<Void> exchange;

  StreamResponse(HttpResponse head, StreamBody body, Future<Void> exchange) {
    this.head = head;
    this.body = body;
    this.exchange = exchange;
    if (head.getCode() == 206 && body.declaredLength() < 0) {
      // HTTP/2 does not require Content-Length: a single range's length is in its Content-Range
      body.declareLength(rangeLength(header("Content-Range")));
    }
  }

  /** The length of {@code bytes a-b/total}, or -1 when it gives none (malformed, {@code b < a}, past a long). */
  static long rangeLength(String contentRange) {
    if (contentRange == null || !contentRange.startsWith("bytes ")) {
      return -1;
    }
    int dash = contentRange.indexOf('-');
    int slash = contentRange.indexOf('/');
    if (dash < 0 || slash < dash) {
      return -1;
    }
    try {
      long first = Long.parseLong(contentRange.substring(6, dash).trim());
      long last = Long.parseLong(contentRange.substring(dash + 1, slash).trim());
      // last before first, or a length past Long.MAX_VALUE, is no length (first has no sign: the first '-' ends it)
      return last < first || last - first == Long.MAX_VALUE ? -1 : last - first + 1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  @Override
  public int status() {
    return head.getCode();
  }

  @Override
  public String header(String name) {
    Header h = head.getFirstHeader(name);
    return h == null ? null : h.getValue();
  }

  @Override
  public List<String> headers(String name) {
    return Arrays.stream(head.getHeaders(name)).map(Header::getValue).toList();
  }

  @Override
  public long contentLength() {
    return body.declaredLength();
  }

  @Override
  public InputStream body() {
    return body;
  }

  @Override
  public void abort() {
    if (!body.abort(DRAIN_LIMIT)) {
      exchange.cancel(true);
    }
  }

  @Override
  public void close() {
    if (body.fullyRead()) {
      body.finish();
    } else {
      abort();
    }
  }
}
