package dev.braid.testserver;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A bare HTTP/1.1 client on one socket that reports exactly what came over the wire and how it ended. */
final class RawClient implements AutoCloseable {
  /** How a response body ended. */
  enum End {
    /** All declared bytes (or the last chunk) arrived. */
    COMPLETE,
    /** The server closed cleanly (FIN) before or instead of a declared end. */
    EOF,
    /** The connection was reset. */
    RESET
  }

  /** A response as received; {@code headers} names are lower-cased. */
  record Reply(int status, Map<String, String> headers, byte[] body, End end) {
    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  RawClient(TestServer server) throws IOException {
    socket = new Socket("127.0.0.1", server.port());
    socket.setSoTimeout(5_000);
    in = new BufferedInputStream(socket.getInputStream());
    out = socket.getOutputStream();
  }

  /** Sends {@code method path} with the given extra header lines and reads the reply. */
  Reply exchange(String method, String path, String... headerLines) throws IOException {
    send(method, path, headerLines);
    return read(method.equals("HEAD"));
  }

  void send(String method, String path, String... headerLines) throws IOException {
    StringBuilder request = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    for (String line : headerLines) {
      request.append(line).append("\r\n");
    }
    sendRaw(request.append("\r\n").toString());
  }

  void sendRaw(String text) throws IOException {
    out.write(text.getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
  }

  /** Reads one response head and then the body as framed, stopping early at EOF or reset. */
  Reply read(boolean head) throws IOException {
    String[] lines = readHead().split("\r\n");
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      headers.put(lines[i].substring(0, colon).toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    End end;
    if (head) {
      end = End.COMPLETE;
    } else if ("chunked".equals(headers.get("transfer-encoding"))) {
      end = readChunked(body);
    } else if (headers.containsKey("content-length")) {
      end = readUpTo(body, Long.parseLong(headers.get("content-length")));
    } else {
      end = readUpTo(body, Long.MAX_VALUE);
    }
    return new Reply(status, headers, body.toByteArray(), end);
  }

  /**
   * Reads until the connection ends; returns the bytes read before EOF, or -1 if it was reset.
   * Fails if the connection is still open after the socket timeout.
   */
  long drain() {
    try {
      long n = 0;
      for (int b; (b = in.read()) >= 0; ) {
        n++;
      }
      return n;
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the connection did not end", e);
    } catch (IOException e) {
      return -1;
    }
  }

  private String readHead() throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int state = 0;
    while (state < 4) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("EOF in response head: " + head);
      }
      head.write(b);
      state = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
    }
    return head.toString(StandardCharsets.ISO_8859_1).trim();
  }

  private End readUpTo(ByteArrayOutputStream body, long limit) {
    byte[] buf = new byte[8192];
    try {
      while (body.size() < limit) {
        int n = in.read(buf, 0, (int) Math.min(buf.length, limit - body.size()));
        if (n < 0) {
          return End.EOF;
        }
        body.write(buf, 0, n);
      }
      return End.COMPLETE;
    } catch (IOException e) {
      return End.RESET;
    }
  }

  private End readChunked(ByteArrayOutputStream body) {
    try {
      while (true) {
        String sizeLine = readLine();
        if (sizeLine == null) {
          return End.EOF;
        }
        int size = Integer.parseInt(sizeLine.trim(), 16);
        if (size == 0) {
          return readLine() == null ? End.EOF : End.COMPLETE;
        }
        byte[] chunk = in.readNBytes(size);
        body.write(chunk);
        if (chunk.length < size || readLine() == null) {
          return End.EOF;
        }
      }
    } catch (IOException e) {
      return End.RESET;
    }
  }

  private String readLine() throws IOException {
    StringBuilder line = new StringBuilder();
    for (int b; (b = in.read()) != '\n'; ) {
      if (b < 0) {
        return null;
      }
      if (b != '\r') {
        line.append((char) b);
      }
    }
    return line.toString();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
