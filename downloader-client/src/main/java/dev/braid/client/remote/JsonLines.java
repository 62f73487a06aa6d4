package dev.braid.client.remote;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;

/**
 * The framing of the daemon's local socket, for both of its ends: one JSON text per line, UTF-8,
 * ended by {@code '\n'} (JSON text escapes every newline inside it). No dependency beyond the
 * JDK, so a client loads nothing of the server to use it.
 */
public final class JsonLines {
  /** Takes each line read, in order, on the reading thread. */
  public interface Handler {
    void line(String json) throws InterruptedException;
  }

  private JsonLines() {}

  /**
   * Reads lines from {@code channel} until its end, blocking; false when a line grew past
   * {@code maxBytes} (the rest is left unread: the caller closes the connection).
   */
  public static boolean read(ReadableByteChannel channel, int maxBytes, Handler handler)
      throws IOException, InterruptedException {
    ByteBuffer buffer = ByteBuffer.allocate(16 * 1024);
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    while (channel.read(buffer) >= 0) {
      buffer.flip();
      while (buffer.hasRemaining()) {
        byte b = buffer.get();
        if (b == '\n') {
          handler.line(line.toString(StandardCharsets.UTF_8));
          line.reset();
        } else if (line.size() >= maxBytes) {
          return false;
        } else {
          line.write(b);
        }
      }
      buffer.clear();
    }
    return true;
  }

  /** Writes {@code json} as one line, blocking until it is all written; callers serialise their writes. */
  public static void write(WritableByteChannel channel, String json) throws IOException {
    ByteBuffer bytes = StandardCharsets.UTF_8.encode(json + "\n");
    while (bytes.hasRemaining()) {
      channel.write(bytes);
    }
  }
}
