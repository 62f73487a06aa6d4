package dev.braid.cli.mcp;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The protocol's input, telling when it ends: the SDK's stdio transport stops reading at its end
 * but tells no one, and {@code braid mcp} stops when its client closes the pipe.
 */
final class EndOfInput extends FilterInputStream {
  private final Runnable ended;

  /** {@code in}, calling {@code ended} (perhaps more than once) at its end or when reading it fails. */
  EndOfInput(InputStream in, Runnable ended) {
    super(in);
    this.ended = ended;
  }

  @Override
  public int read() throws IOException {
    try {
      int b = super.read();
      if (b < 0) {
        ended.run();
      }
      return b;
    } catch (IOException e) {
      ended.run();
      throw e;
    }
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    try {
      int n = super.read(buffer, offset, length);
      if (n < 0) {
        ended.run();
      }
      return n;
    } catch (IOException e) {
      ended.run();
      throw e;
    }
  }
}
