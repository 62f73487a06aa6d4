package dev.braid.core.internal.http;

import java.io.IOException;

/**
 * An HTTP/2 connection delivered nothing on any stream for a while although a stream's window was
 * open: it was given up, and the streams on it fail with this so their workers go on from where
 * they are on a new connection.
 */
final class H2Stalled extends IOException {
  private static final long serialVersionUID = 1L;

  H2Stalled(long silentNanos) {
    super("the HTTP/2 connection sent nothing for " + silentNanos / 1_000_000 + " ms on any stream: given up for a new one");
  }
}
