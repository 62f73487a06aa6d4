package dev.braid.testserver;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** {@code lines} header lines of {@code lineLength} bytes each (CRLF included), as a hostile server sends them. */
record HeaderFlood(int lines, int lineLength) {
  void writeTo(OutputStream out) throws IOException {
    for (int i = 0; i < lines; i++) {
      byte[] name = ("X-Flood-" + i + ": ").getBytes(StandardCharsets.US_ASCII);
      byte[] line = Arrays.copyOf(name, Math.max(lineLength, name.length + 3));
      Arrays.fill(line, name.length, line.length - 2, (byte) 'a');
      line[line.length - 2] = '\r';
      line[line.length - 1] = '\n';
      out.write(line);
    }
  }
}
