package dev.braid.testserver;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * How a {@link Resource}'s responses are shaped: headers, range handling, framing and pacing.
 * Written through the resource's setters from any thread while requests are in flight, read by the
 * connections' threads: every knob is volatile, and a response reads each once when it starts (the
 * rate limits as its body is sent).
 */
final class ResponseKnobs {
  private volatile String etag;
  private volatile Instant lastModified;
  private volatile String contentDisposition;
  private volatile long rateLimit;
  private volatile long slowFromStartRate;
  private volatile int pieceSize;
  private volatile boolean ignoreRange;
  private volatile boolean acceptRanges = true;
  private volatile long shiftContentRange;
  private volatile boolean wrongTotal;
  private volatile long extraBytes;
  private volatile boolean noContentLength;
  private volatile boolean chunked;
  private volatile HeaderFlood headerFlood;
  private volatile boolean weakDates;
  private volatile boolean clockDates;
  private volatile String contentEncoding;
  private volatile Encoded encodedWhenAccepted;
  private final List<Map.Entry<String, String>> extraHeaders = new CopyOnWriteArrayList<>();
  private volatile boolean contentDigest;

  void etag(String quotedOrWeak) {
    this.etag = quotedOrWeak;
  }

  void lastModified(Instant t) {
    this.lastModified = t;
  }

  void contentDisposition(String headerValue) {
    this.contentDisposition = headerValue;
  }

  void rateLimit(long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("bytesPerSecond < 0: " + bytesPerSecond);
    }
    this.rateLimit = bytesPerSecond;
  }

  void pieceSize(int bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes < 0: " + bytes);
    }
    this.pieceSize = bytes;
  }

  void slowFromStartRate(long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("bytesPerSecond < 0: " + bytesPerSecond);
    }
    this.slowFromStartRate = bytesPerSecond;
  }

  void ignoreRange(boolean on) {
    this.ignoreRange = on;
  }

  void acceptRanges(boolean on) {
    this.acceptRanges = on;
  }

  void shiftContentRange(long delta) {
    this.shiftContentRange = delta;
  }

  void wrongTotal(boolean on) {
    this.wrongTotal = on;
  }

  void extraBytes(long n) {
    if (n < 0) {
      throw new IllegalArgumentException("n < 0: " + n);
    }
    this.extraBytes = n;
  }

  void noContentLength(boolean on) {
    this.noContentLength = on;
  }

  void chunked(boolean on) {
    this.chunked = on;
  }

  void weakDates(boolean on) {
    this.weakDates = on;
  }

  void clockDates(boolean on) {
    this.clockDates = on;
  }

  void contentEncoding(String coding) {
    this.contentEncoding = coding;
  }

  void encodedWhenAccepted(String coding, Content encoded) {
    this.encodedWhenAccepted = coding == null ? null : new Encoded(coding, Objects.requireNonNull(encoded, "encoded"));
  }

  void headerFlood(int lines, int lineLength) {
    if (lines < 0 || lineLength < 16) {
      throw new IllegalArgumentException("lines must be >= 0 and lineLength >= 16");
    }
    this.headerFlood = lines == 0 ? null : new HeaderFlood(lines, lineLength);
  }

  void extraHeader(String name, String value) {
    extraHeaders.add(Map.entry(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value")));
  }

  void noExtraHeaders() {
    extraHeaders.clear();
  }

  void contentDigest(boolean on) {
    this.contentDigest = on;
  }

  List<Map.Entry<String, String>> extraHeaders() {
    return List.copyOf(extraHeaders);
  }

  boolean contentDigest() {
    return contentDigest;
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

  int pieceSize() {
    return pieceSize;
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

  boolean clockDates() {
    return clockDates;
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

  /** The representation {@link Resource#encodedWhenAccepted} serves. */
  record Encoded(String coding, Content content) {}
}
