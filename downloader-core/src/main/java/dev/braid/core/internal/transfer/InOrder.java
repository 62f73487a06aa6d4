package dev.braid.core.internal.transfer;

/**
 * The sizes of an in-order download ({@link dev.braid.core.DownloadRequest#sequential()}, and
 * every stream): the window of work after the first missing byte, and the reorder buffer a
 * stream holds its bytes in until they can go out in order.
 */
final class InOrder {
  /**
   * Work is handed out only this far past the first missing byte, and each connection's requests
   * are cut to half its share of it ({@link WorkerPool#requestSize}): room for every connection's
   * next request while the one at the front finishes, so a connection a little slower than the
   * others does not hold them all.
   */
  static final long WINDOW = 24L << 20;
  /** The longest request of an in-order download: half the window (a single connection's half share). */
  static final long MAX_REQUEST = WINDOW / 2;
  /**
   * A stream's reorder buffer: the window, plus the longest request that may start just inside
   * it.
   */
  static final int BUFFER = (int) (WINDOW + MAX_REQUEST);

  private InOrder() {}
}
