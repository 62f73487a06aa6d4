package dev.braid.testserver;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A file served at one path, with knobs for how it is served and which faults to inject.
 *
 * <p>Every knob is safe to change from any thread while requests are in flight; a response reads
 * the knobs once when it starts (the rate limit is re-read as the body is sent). Setters return
 * {@code this} for chaining. Setting a fault again replaces its previous arming. Body faults
 * (drop, truncate, stall) are used up only by responses they actually affect; {@link #failNext}
 * by any request.
 */
public final class Resource {
  private volatile Content content;
  private volatile Consumer<RequestRecord> onRequest;
  private volatile String requiredCookie;
  private final ResponseKnobs knobs = new ResponseKnobs();
  private final ArmedFaults faults = new ArmedFaults();
  private final SentBytes sent = new SentBytes();

  Resource(Content content) {
    this.content = Objects.requireNonNull(content, "content");
  }

  /** Replaces the bytes served from now on, e.g. to simulate "the remote file changed". */
  public Resource content(Content c) {
    this.content = Objects.requireNonNull(c, "content");
    return this;
  }

  /** The bytes currently served. */
  public Content content() {
    return content;
  }

  /** The ETag header exactly as sent, e.g. {@code "\"v1\""} or {@code "W/\"v1\""}; null for none. */
  public Resource etag(String quotedOrWeak) {
    knobs.etag(quotedOrWeak);
    return this;
  }

  /**
   * When on, each response's Last-Modified is the second it is sent (its Date, as every response's
   * here), as a generated page dates itself (instead of {@link #lastModified}).
   */
  public Resource clockDates(boolean on) {
    knobs.clockDates(on);
    return this;
  }

  /** The Last-Modified time, sent as an IMF-fixdate (whole seconds); null for none. */
  public Resource lastModified(Instant t) {
    knobs.lastModified(t);
    return this;
  }

  /** The Content-Disposition header value; null for none. */
  public Resource contentDisposition(String headerValue) {
    knobs.contentDisposition(headerValue);
    return this;
  }

  /**
   * Caps each connection at {@code bytesPerSecond} of body (0 = unlimited), paced smoothly by a
   * per-connection token bucket holding about 20 ms of tokens.
   */
  public Resource rateLimitPerConnection(long bytesPerSecond) {
    knobs.rateLimit(bytesPerSecond);
    return this;
  }

  /**
   * Under a rate limit, sends each body in pieces of at most {@code bytes}, each written and paced on
   * its own with no burst beyond one piece: a long path that delivers a few packets at a time, so
   * that a client meets the socket empty between pieces. 0 (the default) = pieces of 20 ms of the rate.
   */
  public Resource pieceSize(int bytes) {
    knobs.pieceSize(bytes);
    return this;
  }

  /**
   * Caps at {@code bytesPerSecond}, for its whole life, every connection whose first response body
   * starts at byte 0 (a range from 0 or the whole file) of this resource: a client's first
   * connection on a slow path, while every other one gets the normal rate. 0 turns it off.
   */
  public Resource slowConnectionFromByteZero(long bytesPerSecond) {
    knobs.slowFromStartRate(bytesPerSecond);
    return this;
  }

  /** When on, ranged requests get 200 with the full body, like a server without range support. */
  public Resource ignoreRange(boolean on) {
    knobs.ignoreRange(on);
    return this;
  }

  /** Whether to send {@code Accept-Ranges: bytes}; on by default. */
  public Resource acceptRangesHeader(boolean on) {
    knobs.acceptRanges(on);
    return this;
  }

  /**
   * Answers ranges with a 206 whose Content-Range and bytes start {@code delta} away from what was
   * asked (clamped to the content); 0 turns it off.
   */
  public Resource shiftContentRange(long delta) {
    knobs.shiftContentRange(delta);
    return this;
  }

  /** When on, the Content-Range total of a 206 is size + 1. */
  public Resource wrongTotal(boolean on) {
    knobs.wrongTotal(on);
    return this;
  }

  /**
   * Sends {@code n} body bytes more than the range (or whole file) asked for, with Content-Length
   * counting them while Content-Range still declares the asked range. Applies to responses with a
   * Content-Length; bytes past the end of the content are zeros.
   */
  public Resource extraBytes(long n) {
    knobs.extraBytes(n);
    return this;
  }

  /**
   * When on, answers 200 without Content-Length, with the body delimited by closing the connection
   * ({@code Connection: close}); ranges are ignored.
   */
  public Resource noContentLength(boolean on) {
    knobs.noContentLength(on);
    return this;
  }

  /**
   * When on, answers 200 with {@code Transfer-Encoding: chunked} and no length; ranges are ignored.
   * Takes precedence over {@link #noContentLength}.
   */
  public Resource chunked(boolean on) {
    knobs.chunked(on);
    return this;
  }

  /**
   * The next {@code times} GET responses whose body is longer than {@code bodyBytes} reset the
   * connection (RST) after that many body bytes, though their length was declared in full. Bytes
   * still in flight may be lost to the reset, as on a real network.
   */
  public Resource dropAfter(long bodyBytes, int times) {
    faults.dropAfter(bodyBytes, times);
    return this;
  }

  /**
   * Like {@link #dropAfter} but ends with a clean FIN: fewer bytes than declared, then EOF.
   */
  public Resource truncateAfter(long bodyBytes, int times) {
    faults.truncateAfter(bodyBytes, times);
    return this;
  }

  /**
   * The next {@code times} GET responses whose body is longer than {@code bodyBytes} pause for
   * {@code d} after that many body bytes, then continue unless the client has gone away.
   */
  public Resource stallAfter(long bodyBytes, Duration d, int times) {
    faults.stallAfter(bodyBytes, d, times);
    return this;
  }

  /**
   * The next {@code times} responses with a body longer than {@code bodyBytes} send the rest of it
   * at {@code bytesPerSecond} (a trickle: the connection is alive, just useless). Shares its slot
   * with {@link #stallAfter}: setting one replaces the other.
   */
  public Resource trickleAfter(long bodyBytes, long bytesPerSecond, int times) {
    faults.trickleAfter(bodyBytes, bytesPerSecond, times);
    return this;
  }

  /**
   * The next {@code times} requests (GET or HEAD) get {@code status} with a short text body, and
   * {@code Retry-After: retryAfterSeconds} unless that is null.
   */
  public Resource failNext(int status, int times, Integer retryAfterSeconds) {
    faults.failNext(status, times, retryAfterSeconds);
    return this;
  }

  /**
   * When on, an If-Range carrying a date never matches, so a ranged request with one gets the
   * whole file (200): Apache's rule for a file modified within the last second, whose
   * Last-Modified it then calls weak (it also sends a weak ETag then: set one with {@link #etag}).
   */
  public Resource weakDates(boolean on) {
    knobs.weakDates(on);
    return this;
  }

  /**
   * Sends {@code Content-Encoding: coding} on every response, the bytes unchanged: Apache's
   * {@code AddEncoding gzip .gz} serving a {@code .gz} file. Null turns it off.
   */
  public Resource contentEncoding(String coding) {
    knobs.contentEncoding(coding);
    return this;
  }

  /**
   * When a request's Accept-Encoding names {@code coding}, serves {@code encoded} instead, with
   * {@code Content-Encoding: coding} and the ETag suffixed with {@code -coding} inside its quotes
   * (as Apache's mod_deflate does); other requests get the plain content. Null turns it off.
   */
  public Resource encodedWhenAccepted(String coding, Content encoded) {
    knobs.encodedWhenAccepted(coding, encoded);
    return this;
  }

  /**
   * Adds a header line to every response of this file, after the others; the same name may be
   * added again for several lines (several {@code Link} headers, say).
   */
  public Resource header(String name, String value) {
    knobs.extraHeader(name, value);
    return this;
  }

  /** Removes the lines {@link #header} added. */
  public Resource noExtraHeaders() {
    knobs.noExtraHeaders();
    return this;
  }

  /**
   * When on, every 200 and 206 with a Content-Length carries {@code Content-Digest:
   * sha-256=:BASE64:} (RFC 9530) of the bytes of that very response: a 206's covers its range
   * only. Off by default.
   */
  public Resource contentDigest(boolean on) {
    knobs.contentDigest(on);
    return this;
  }

  /**
   * A hostile server: every response head carries {@code lines} extra header lines of
   * {@code lineLength} bytes each before its blank line ({@code Integer.MAX_VALUE} lines is, to
   * the client, a head that never ends). Lines are written as the client reads them, so the
   * server holds none of them in memory; a client that gives up ends the connection. 0 lines
   * turns it off.
   */
  public Resource headerFlood(int lines, int lineLength) {
    knobs.headerFlood(lines, lineLength);
    return this;
  }

  /**
   * From now on every response sends the bytes of {@code [from, to)} of the content inverted
   * (each XOR 0xFF), with the same headers and length: a mirror that serves corrupt data for
   * that range, which only a hash can tell. Adds to earlier ranges; {@link #noCorruption} clears them.
   */
  public Resource corruptBytes(long from, long to) {
    faults.corruptBytes(from, to);
    return this;
  }

  /** Serves every byte as it is again. */
  public Resource noCorruption() {
    faults.noCorruption();
    return this;
  }

  /** Requests beyond {@code n} in flight for this resource get 503 with Retry-After: 1; 0 = unlimited. */
  public Resource maxConcurrentRequests(int n) {
    faults.maxConcurrentRequests(n);
    return this;
  }

  /**
   * Runs {@code hook} on the connection's thread when a request for this resource arrives, before
   * anything is decided about the response, so the hook may change the knobs or the content for
   * that very request. Null removes the hook. An exception from the hook kills the connection
   * without a response.
   */
  public Resource onRequest(Consumer<RequestRecord> hook) {
    this.onRequest = hook;
    return this;
  }

  /**
   * From now on every request must carry {@code ?token=T} with a token from {@link #freshToken()},
   * which stops working (403) once this resource has sent {@code bytesPerToken} body bytes after it
   * was issued: an expiring signed URL. Requests already streaming are not cut.
   */
  public Resource expiringTokens(long bytesPerToken) {
    sent.expiringTokens(bytesPerToken);
    return this;
  }

  /**
   * From now on every request must carry {@code nameValue} (such as {@code session=abc}) among the
   * pairs of its {@code Cookie} header, or it gets 403: a file behind a login. Setting another
   * expires the one before (the session ended); null lets every request in. Not for the HTTP/2
   * server.
   */
  public Resource requireCookie(String nameValue) {
    this.requiredCookie = nameValue;
    return this;
  }

  /** Whether a request with this {@code Cookie} header (null for none) may have the file. */
  boolean cookieAccepted(String cookieHeader) {
    String required = requiredCookie;
    if (required == null) {
      return true;
    }
    if (cookieHeader == null) {
      return false;
    }
    for (String pair : cookieHeader.split(";")) {
      if (pair.strip().equals(required)) {
        return true;
      }
    }
    return false;
  }

  /** A new token for {@link #expiringTokens}, valid from now. */
  public String freshToken() {
    return sent.freshToken();
  }

  /** Body bytes written to sockets for this resource (bytes a failed write did not send excluded). */
  public long bodyBytesSent() {
    return sent.body();
  }

  /** Body bytes the connections held by {@link #slowConnectionFromByteZero} wrote to their sockets. */
  public long slowConnectionBytesSent() {
    return sent.slowConnection();
  }

  Consumer<RequestRecord> onRequest() {
    return onRequest;
  }

  ResponseKnobs knobs() {
    return knobs;
  }

  ArmedFaults faults() {
    return faults;
  }

  SentBytes sent() {
    return sent;
  }
}
