package dev.braid.testserver;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** A response about to be sent: status, headers in order, and either a small fixed body or a body plan. */
final class Response {
  // IMF-fixdate; DateTimeFormatter.RFC_1123_DATE_TIME would drop the leading zero of the day.
  private static final DateTimeFormatter HTTP_DATE =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

  private static final byte[] CRLF = {'\r', '\n'};

  final int status;
  private final StringBuilder headers = new StringBuilder();
  private byte[] fixedBody;
  private BodyPlan body;
  private boolean closesConnection;
  private HeaderFlood flood;

  Response(int status) {
    this.status = status;
  }

  /** A response whose body is a one-line text like "404 Not Found". */
  static Response text(int status) {
    byte[] text = (status + " " + reason(status) + "\n").getBytes(StandardCharsets.US_ASCII);
    Response r = new Response(status)
        .header("Content-Type", "text/plain; charset=us-ascii")
        .header("Content-Length", text.length);
    r.fixedBody = text;
    return r;
  }

  static String httpDate(Instant t) {
    return HTTP_DATE.format(t);
  }

  /** Appends a header; a null value means "no such header", which keeps optional knobs terse. */
  Response header(String name, Object value) {
    if (value != null) {
      headers.append(name).append(": ").append(value).append("\r\n");
    }
    return this;
  }

  Response body(BodyPlan plan) {
    this.body = plan;
    return this;
  }

  /** Extra header lines to stream before the end of the head; null for none. */
  Response flood(HeaderFlood f) {
    this.flood = f;
    return this;
  }

  /** Marks the response as ending the connection (errors, close-delimited bodies). */
  Response closeConnection() {
    this.closesConnection = true;
    return this;
  }

  byte[] fixedBody() {
    return fixedBody;
  }

  BodyPlan body() {
    return body;
  }

  boolean closesConnection() {
    return closesConnection;
  }

  /** Writes the status line and headers, any flood of extra header lines, and the blank line. */
  void writeHead(OutputStream out) throws IOException {
    out.write(("HTTP/1.1 " + status + " " + reason(status) + "\r\n" + headers).getBytes(StandardCharsets.ISO_8859_1));
    if (flood != null) {
      flood.writeTo(out);
    }
    out.write(CRLF);
  }

  static String reason(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 206 -> "Partial Content";
      case 301 -> "Moved Permanently";
      case 302 -> "Found";
      case 303 -> "See Other";
      case 307 -> "Temporary Redirect";
      case 308 -> "Permanent Redirect";
      case 400 -> "Bad Request";
      case 401 -> "Unauthorized";
      case 403 -> "Forbidden";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 408 -> "Request Timeout";
      case 410 -> "Gone";
      case 416 -> "Range Not Satisfiable";
      case 429 -> "Too Many Requests";
      case 431 -> "Request Header Fields Too Large";
      case 500 -> "Internal Server Error";
      case 502 -> "Bad Gateway";
      case 503 -> "Service Unavailable";
      case 504 -> "Gateway Timeout";
      default -> "Status " + status;
    };
  }
}
