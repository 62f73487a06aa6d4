package dev.braid.testserver;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Reads one request head (request line and headers), bounded to {@value #MAX_HEAD_BYTES} bytes. */
final class RequestParser {
  static final int MAX_HEAD_BYTES = 8 * 1024;

  /** A request head the server answers with {@code status} and then closes the connection. */
  static final class BadRequest extends Exception {
    final int status;
    /** Whatever of the request could be read, so it can still be recorded. */
    final HttpRequest partial;

    BadRequest(int status, HttpRequest partial, String message) {
      super(message, null, false, false);
      this.status = status;
      this.partial = partial;
    }
  }

  private RequestParser() {}

  /**
   * Reads the next request head; returns null on a clean EOF before its first byte, which is how a
   * keep-alive client says goodbye.
   */
  static HttpRequest read(InputStream in) throws IOException, BadRequest {
    byte[] head = new byte[MAX_HEAD_BYTES];
    int used = 0;
    int lineStart = 0;
    List<String> lines = new ArrayList<>();
    while (true) {
      int b = in.read();
      if (b < 0) {
        if (used == 0) {
          return null;
        }
        throw new EOFException("request head cut short");
      }
      if (used == head.length) {
        throw new BadRequest(431, partial(lines), "request head over " + MAX_HEAD_BYTES + " bytes");
      }
      head[used++] = (byte) b;
      if (b != '\n') {
        continue;
      }
      int end = used - 1;
      if (end > lineStart && head[end - 1] == '\r') {
        end--;
      }
      String line = new String(head, lineStart, end - lineStart, StandardCharsets.ISO_8859_1);
      lineStart = used;
      if (!line.isEmpty()) {
        lines.add(line);
      } else if (!lines.isEmpty()) {
        return parse(lines);
      }
      // A blank line before the request line is tolerated (RFC 9112 §2.2).
    }
  }

  private static HttpRequest parse(List<String> lines) throws BadRequest {
    String[] requestLine = lines.get(0).split(" ", -1);
    if (requestLine.length != 3 || requestLine[0].isEmpty() || requestLine[1].isEmpty()
        || !requestLine[2].startsWith("HTTP/1.")) {
      throw new BadRequest(400, partial(List.of()), "bad request line: " + lines.get(0));
    }
    Map<String, String> headers = new LinkedHashMap<>();
    for (String line : lines.subList(1, lines.size())) {
      int colon = line.indexOf(':');
      // Obsolete line folding (a line starting with whitespace) is rejected, as RFC 9112 allows.
      if (colon <= 0 || Character.isWhitespace(line.charAt(0))) {
        throw new BadRequest(400, partial(lines), "bad header line: " + line);
      }
      String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = line.substring(colon + 1).trim();
      headers.merge(name, value, (a, b) -> a + ", " + b);
    }
    return new HttpRequest(requestLine[0], requestLine[1], requestLine[2], Collections.unmodifiableMap(headers));
  }

  /** Method and target from the request line if it has been read, with no headers. */
  private static HttpRequest partial(List<String> lines) {
    String[] parts = lines.isEmpty() ? new String[0] : lines.get(0).split(" ", -1);
    return new HttpRequest(
        parts.length > 0 ? parts[0] : "", parts.length > 1 ? parts[1] : "", "HTTP/1.1", Map.of());
  }
}
