package dev.braid.cli.mcp;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Bytes of the stdio transport cut into its messages, one a line (the transport escapes the
 * newlines inside a message), each handed to a consumer as text. Confined to the one thread that
 * reads, or writes, its stream.
 */
final class Lines {
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();
  private final Consumer<String> consumer;

  Lines(Consumer<String> consumer) {
    this.consumer = consumer;
  }

  /** Takes {@code length} bytes of {@code buffer} from {@code offset}. */
  void take(byte[] buffer, int offset, int length) {
    int start = offset;
    for (int i = offset; i < offset + length; i++) {
      if (buffer[i] == '\n') {
        line.write(buffer, start, i - start);
        consumer.accept(line.toString(StandardCharsets.UTF_8));
        line.reset();
        start = i + 1;
      }
    }
    line.write(buffer, start, offset + length - start);
  }
}
