package dev.braid.core.internal.transfer;

/**
 * The sizes of an in-order download ({@link dev.braid.core.DownloadRequest#sequential()}, and
 * every stream): the window of work after the first missing byte, and the reorder buffer a
 * stream holds its bytes in until they can go out in order.
 */
final class InOrder {
  /**
   * Work is handed out only this far past the first missing byte, and each connection's requests
   * are cut to its share of it ({@link WorkerPool#requestSize}).
   */
  static final long WINDOW = 16L << 20;
  /**
   * A stream's reorder buffer: the window, plus the longest request that may start just inside
   * it (a single connection's share is the whole window).
   */
  static final int BUFFER = (int) (2 * WINDOW);

  private InOrder() {}
}
