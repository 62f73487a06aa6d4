package dev.braid.testserver;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
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
  private volatile String etag;
  private volatile Instant lastModified;
  private volatile String contentDisposition;
  private volatile long rateLimit;
  private volatile long slowFromStartRate;
  private volatile boolean ignoreRange;
  private volatile boolean acceptRanges = true;
  private volatile long shiftContentRange;
  private volatile boolean wrongTotal;
  private volatile long extraBytes;
  private volatile boolean noContentLength;
  private volatile boolean chunked;
  private volatile Fault drop;
  private volatile Fault truncate;
  private volatile Fault stall;
  private volatile Failure failure;
  private volatile int maxConcurrentRequests;
  private volatile HeaderFlood headerFlood;
  private volatile boolean weakDates;
  private volatile String contentEncoding;
  private volatile Encoded encodedWhenAccepted;
  private volatile Consumer<RequestRecord> onRequest;
  private volatile SignedTokens tokens;
  /** Ranges {@code [from, to)} whose bytes every response sends inverted: a mirror that serves corrupt data. */
  private volatile List<long[]> corrupt = List.of();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicLong bodyBytesSent = new AtomicLong();
  private final AtomicLong slowConnectionBytes = new AtomicLong();

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
    this.etag = quotedOrWeak;
    return this;
  }

  /** The Last-Modified time, sent as an IMF-fixdate (whole seconds); null for none. */
  public Resource lastModified(Instant t) {
    this.lastModified = t;
    return this;
  }

  /** The Content-Disposition header value; null for none. */
  public Resource contentDisposition(String headerValue) {
    this.contentDisposition = headerValue;
    return this;
  }

  /**
   * Caps each connection at {@code bytesPerSecond} of body (0 = unlimited), paced smoothly by a
   * per-connection token bucket holding about 20 ms of tokens.
   */
  public Resource rateLimitPerConnection(long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("bytesPerSecond < 0: " + bytesPerSecond);
    }
    this.rateLimit = bytesPerSecond;
    return this;
  }

  /**
   * Caps at {@code bytesPerSecond}, for its whole life, every connection whose first response body
   * starts at byte 0 (a range from 0 or the whole file) of this resource: a client's first
   * connection on a slow path, while every other one gets the normal rate. 0 turns it off.
   */
  public Resource slowConnectionFromByteZero(long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("bytesPerSecond < 0: " + bytesPerSecond);
    }
    this.slowFromStartRate = bytesPerSecond;
    return this;
  }

  /** When on, ranged requests get 200 with the full body, like a server without range support. */
  public Resource ignoreRange(boolean on) {
    this.ignoreRange = on;
    return this;
  }

  /** Whether to send {@code Accept-Ranges: bytes}; on by default. */
  public Resource acceptRangesHeader(boolean on) {
    this.acceptRanges = on;
    return this;
  }

  /**
   * Answers ranges with a 206 whose Content-Range and bytes start {@code delta} away from what was
   * asked (clamped to the content); 0 turns it off.
   */
  public Resource shiftContentRange(long delta) {
    this.shiftContentRange = delta;
    return this;
  }

  /** When on, the Content-Range total of a 206 is size + 1. */
  public Resource wrongTotal(boolean on) {
    this.wrongTotal = on;
    return this;
  }

  /**
   * Sends {@code n} body bytes more than the range (or whole file) asked for, with Content-Length
   * counting them while Content-Range still declares the asked range. Applies to responses with a
   * Content-Length; bytes past the end of the content are zeros.
   */
  public Resource extraBytes(long n) {
    if (n < 0) {
      throw new IllegalArgumentException("n < 0: " + n);
    }
    this.extraBytes = n;
    return this;
  }

  /**
   * When on, answers 200 without Content-Length, with the body delimited by closing the connection
   * ({@code Connection: close}); ranges are ignored.
   */
  public Resource noContentLength(boolean on) {
    this.noContentLength = on;
    return this;
  }

  /**
   * When on, answers 200 with {@code Transfer-Encoding: chunked} and no length; ranges are ignored.
   * Takes precedence over {@link #noContentLength}.
   */
  public Resource chunked(boolean on) {
    this.chunked = on;
    return this;
  }

  /**
   * The next {@code times} GET responses whose body is longer than {@code bodyBytes} reset the
   * connection (RST) after that many body bytes, though their length was declared in full. Bytes
   * still in flight may be lost to the reset, as on a real network.
   */
  public Resource dropAfter(long bodyBytes, int times) {
    this.drop = new Fault(Fault.Kind.DROP, bodyBytes, Duration.ZERO, times);
    return this;
  }

  /**
   * Like {@link #dropAfter} but ends with a clean FIN: fewer bytes than declared, then EOF.
   */
  public Resource truncateAfter(long bodyBytes, int times) {
    this.truncate = new Fault(Fault.Kind.TRUNCATE, bodyBytes, Duration.ZERO, times);
    return this;
  }

  /**
   * The next {@code times} GET responses whose body is longer than {@code bodyBytes} pause for
   * {@code d} after that many body bytes, then continue unless the client has gone away.
   */
  public Resource stallAfter(long bodyBytes, Duration d, int times) {
    this.stall = new Fault(Fault.Kind.STALL, bodyBytes, Objects.requireNonNull(d, "d"), times);
    return this;
  }

  /**
   * The next {@code times} responses with a body longer than {@code bodyBytes} send the rest of it
   * at {@code bytesPerSecond} (a trickle: the connection is alive, just useless). Shares its slot
   * with {@link #stallAfter}: setting one replaces the other.
   */
  public Resource trickleAfter(long bodyBytes, long bytesPerSecond, int times) {
    if (bytesPerSecond <= 0) {
      throw new IllegalArgumentException("bytesPerSecond must be positive");
    }
    this.stall = new Fault(Fault.Kind.TRICKLE, bodyBytes, Duration.ZERO, bytesPerSecond, times);
    return this;
  }

  /**
   * The next {@code times} requests (GET or HEAD) get {@code status} with a short text body, and
   * {@code Retry-After: retryAfterSeconds} unless that is null.
   */
  public Resource failNext(int status, int times, Integer retryAfterSeconds) {
    if (status < 100 || status > 599) {
      throw new IllegalArgumentException("not an HTTP status: " + status);
    }
    this.failure = new Failure(status, retryAfterSeconds, new AtomicInteger(times));
    return this;
  }

  /**
   * When on, an If-Range carrying a date never matches, so a ranged request with one gets the
   * whole file (200): Apache's rule for a file modified within the last second, whose
   * Last-Modified it then calls weak (it also sends a weak ETag then: set one with {@link #etag}).
   */
  public Resource weakDates(boolean on) {
    this.weakDates = on;
    return this;
  }

  /**
   * Sends {@code Content-Encoding: coding} on every response, the bytes unchanged: Apache's
   * {@code AddEncoding gzip .gz} serving a {@code .gz} file. Null turns it off.
   */
  public Resource contentEncoding(String coding) {
    this.contentEncoding = coding;
    return this;
  }

  /**
   * When a request's Accept-Encoding names {@code coding}, serves {@code encoded} instead, with
   * {@code Content-Encoding: coding} and the ETag suffixed with {@code -coding} inside its quotes
   * (as Apache's mod_deflate does); other requests get the plain content. Null turns it off.
   */
  public Resource encodedWhenAccepted(String coding, Content encoded) {
    this.encodedWhenAccepted = coding == null ? null : new Encoded(coding, Objects.requireNonNull(encoded, "encoded"));
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
    if (lines < 0 || lineLength < 16) {
      throw new IllegalArgumentException("lines must be >= 0 and lineLength >= 16");
    }
    this.headerFlood = lines == 0 ? null : new HeaderFlood(lines, lineLength);
    return this;
  }

  /**
   * From now on every response sends the bytes of {@code [from, to)} of the content inverted
   * (each XOR 0xFF), with the same headers and length: a mirror that serves corrupt data for
   * that range, which only a hash can tell. Adds to earlier ranges; {@link #noCorruption} clears them.
   */
  public Resource corruptBytes(long from, long to) {
    if (from < 0 || to <= from) {
      throw new IllegalArgumentException("need 0 <= from < to, not " + from + ", " + to);
    }
    List<long[]> now = new ArrayList<>(corrupt);
    now.add(new long[] {from, to});
    this.corrupt = List.copyOf(now);
    return this;
  }

  /** Serves every byte as it is again. */
  public Resource noCorruption() {
    this.corrupt = List.of();
    return this;
  }

  /** Inverts the bytes of {@code buffer[0, n)}, the content from {@code position}, that lie in a corrupt range. */
  void corrupt(long position, byte[] buffer, int n) {
    for (long[] r : corrupt) {
      long from = Math.max(r[0], position);
      long to = Math.min(r[1], position + n);
      for (long p = from; p < to; p++) {
        buffer[(int) (p - position)] ^= (byte) 0xFF;
      }
    }
  }

  /** Requests beyond {@code n} in flight for this resource get 503 with Retry-After: 1; 0 = unlimited. */
  public Resource maxConcurrentRequests(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("n < 0: " + n);
    }
    this.maxConcurrentRequests = n;
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
    if (bytesPerToken <= 0) {
      throw new IllegalArgumentException("bytesPerToken must be positive: " + bytesPerToken);
    }
    this.tokens = new SignedTokens(bytesPerToken);
    return this;
  }

  /** A new token for {@link #expiringTokens}, valid from now. */
  public String freshToken() {
    SignedTokens t = tokens;
    if (t == null) {
      throw new IllegalStateException("expiringTokens is not armed");
    }
    return t.issue(bodyBytesSent.get());
  }

  /** Whether a request for {@code target} passes the token check (always, when none is armed). */
  boolean tokenAccepted(String target) {
    SignedTokens t = tokens;
    return t == null || t.accepts(target, bodyBytesSent.get());
  }

  /** Body bytes written to sockets for this resource (bytes a failed write did not send excluded). */
  public long bodyBytesSent() {
    return bodyBytesSent.get();
  }

  /** Body bytes the connections held by {@link #slowConnectionFromByteZero} wrote to their sockets. */
  public long slowConnectionBytesSent() {
    return slowConnectionBytes.get();
  }

  String etag() {
    return etag;
  }

  Instant lastModified() {
    return lastModified;
  }

  String contentDisposition() {
    return contentDisposition;
  }

  long rateLimit() {
    return rateLimit;
  }

  long slowFromStartRate() {
    return slowFromStartRate;
  }

  boolean ignoreRange() {
    return ignoreRange;
  }

  boolean acceptRanges() {
    return acceptRanges;
  }

  long shiftContentRange() {
    return shiftContentRange;
  }

  boolean wrongTotal() {
    return wrongTotal;
  }

  long extraBytes() {
    return extraBytes;
  }

  boolean noContentLength() {
    return noContentLength;
  }

  boolean chunked() {
    return chunked;
  }

  boolean weakDates() {
    return weakDates;
  }

  String contentEncoding() {
    return contentEncoding;
  }

  Encoded encodedWhenAccepted() {
    return encodedWhenAccepted;
  }

  HeaderFlood headerFlood() {
    return headerFlood;
  }

  Consumer<RequestRecord> onRequest() {
    return onRequest;
  }

  /** Claims one armed failure, or returns null if none is left. */
  Failure claimFailure() {
    Failure f = failure;
    return f != null && f.claim() ? f : null;
  }

  /** Claims the stall for a body of {@code bodyLength} bytes, or null if none applies. */
  Fault claimStall(long bodyLength) {
    Fault s = stall;
    return s != null && s.claim(bodyLength) ? s : null;
  }

  /** Claims a drop, else a truncation, for a body of {@code bodyLength} bytes, or null. */
  Fault claimEnding(long bodyLength) {
    Fault d = drop;
    if (d != null && d.claim(bodyLength)) {
      return d;
    }
    Fault t = truncate;
    return t != null && t.claim(bodyLength) ? t : null;
  }

  /** Counts a request in flight; false (and not counted) if that would exceed the cap. */
  boolean enter() {
    int now = inFlight.incrementAndGet();
    int max = maxConcurrentRequests;
    if (max > 0 && now > max) {
      inFlight.decrementAndGet();
      return false;
    }
    return true;
  }

  void exit() {
    inFlight.decrementAndGet();
  }

  void addBodyBytes(long n) {
    bodyBytesSent.addAndGet(n);
  }

  /** The representation {@link #encodedWhenAccepted} serves. */
  record Encoded(String coding, Content content) {}

  void addSlowConnectionBytes(long n) {
    slowConnectionBytes.addAndGet(n);
  }

  /** An armed {@link #failNext} answer. */
  record Failure(int status, Integer retryAfterSeconds, AtomicInteger remaining) {
    boolean claim() {
      return remaining.getAndUpdate(r -> r > 0 ? r - 1 : 0) > 0;
    }
  }
}
