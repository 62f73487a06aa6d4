package dev.braid.core.internal.limit;

/**
 * The limits one read passes: its download's bucket, then the Braid-wide one. A read takes
 * what both allow; what the second refuses goes back to the first.
 */
public final class Throttle {
  private final TokenBucket download;
  private final TokenBucket global;

  public Throttle(TokenBucket download, TokenBucket global) {
    this.download = download;
    this.global = global;
  }

  /** Waits for permission to read, returning how many bytes (1 to {@code max}) may be read now. */
  public int acquire(int max) {
    int mine = download.acquire(max);
    int both = global.acquire(mine);
    download.refund(mine - both);
    return both;
  }

  /** Whether either limit is set: throughput measured under one says nothing about the server. */
  public boolean limited() {
    return download.rate() > 0 || global.rate() > 0;
  }

  /** Returns bytes granted but not read. */
  public void refund(int unused) {
    download.refund(unused);
    global.refund(unused);
  }
}
