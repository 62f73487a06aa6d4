package dev.braid.core.time;

/**
 * A source of monotonic nanoseconds, Caffeine's and Guava's model: only the difference between two
 * reads means anything. The engine reads one wherever elapsed time decides what it does (DNS
 * answers' age, backoff, slow-connection windows, queue heartbeats, speed meters, rate limits,
 * deadlines); a test gives one it moves by hand ({@code Braid.builder().ticker(t)}) instead of
 * sleeping.
 *
 * <p>Read from many threads at once (every download's driver and workers, the queue's loop, the
 * HTTP client's resolver): an implementation must be thread-safe, must never go backwards, and
 * should be cheap. The engine's waits still block on the real clock, for the time the ticker says
 * is left, then read it again: a test that moves its ticker past a wait's end sees the wait end at
 * its next read, and a ticker never moved makes the wait wait again.
 */
@FunctionalInterface
public interface Ticker {
  /** The one system ticker: {@link System#nanoTime()}. */
  Ticker SYSTEM = System::nanoTime;

  /**
   * Nanoseconds since an arbitrary origin fixed for this ticker.
   *
   * @return the current reading
   */
  long read();
}
