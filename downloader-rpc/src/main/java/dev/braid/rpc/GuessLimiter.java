package dev.braid.rpc;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Prices guessing the RPC secret per guess, not per request: at most {@link #WRONG_PER_SECOND}
 * wrong secrets are checked per client address in any second, however they come (one a request,
 * many in a batch or a {@code system.multicall}, many on one WebSocket). Beyond that, a call from
 * that address that needs the secret is refused without checking it, right or wrong: accepting a
 * right one then would tell a guesser which of its guesses was right. A right secret costs nothing
 * and is never refused while the address has room.
 *
 * <p>A client is its IPv4 address, or its IPv6 address's /64 (one host is given a whole /64, so
 * per address it would guess without bound). The addresses of the last second are kept, up to
 * {@link #ADDRESSES} of them (the oldest forgotten first): an address idle for a second has its
 * whole allowance again anyway. Thread-safe: each address's record is guarded by its own monitor.
 */
final class GuessLimiter {
  /** Wrong secrets checked per client address in any one second. */
  static final int WRONG_PER_SECOND = 10;
  private static final long SECOND = Duration.ofSeconds(1).toNanos();
  private static final int ADDRESSES = 65_536;

  /** What a call's secret came to. */
  enum Verdict {
    RIGHT, WRONG,
    /** Not checked: its address had used up its wrong secrets of this second. */
    REFUSED
  }

  private final LongSupplier nanos;
  private final Cache<String, Record> records;

  /** @param nanos the clock, in nanoseconds as {@link System#nanoTime} (tests move it by hand) */
  GuessLimiter(LongSupplier nanos) {
    this.nanos = nanos;
    this.records = Caffeine.newBuilder().maximumSize(ADDRESSES).expireAfterAccess(Duration.ofNanos(SECOND))
        .ticker(nanos::getAsLong).executor(Runnable::run).build();
  }

  /**
   * Checks a secret from {@code client} ({@link Caller#address()}) with {@code right}, unless the
   * client has had its wrong secrets of the last second: then {@code right} is not run at all.
   */
  Verdict check(String client, BooleanSupplier right) {
    long now = nanos.getAsLong();
    Record r = records.get(client, c -> new Record(now));
    synchronized (r) {
      if (now - r.wrong[r.oldest] < SECOND) {
        return Verdict.REFUSED;
      }
      if (right.getAsBoolean()) {
        return Verdict.RIGHT;
      }
      r.wrong[r.oldest] = now;
      r.oldest = (r.oldest + 1) % WRONG_PER_SECOND;
      return Verdict.WRONG;
    }
  }

  /** The times of an address's last wrong secrets, a ring whose oldest is next to be replaced. */
  private static final class Record {
    final long[] wrong = new long[WRONG_PER_SECOND];
    int oldest;

    Record(long now) {
      // as if its last wrong secrets were a second ago: the whole allowance is there
      Arrays.fill(wrong, now - SECOND);
    }
  }
}
