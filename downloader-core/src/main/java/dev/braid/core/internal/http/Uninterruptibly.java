package dev.braid.core.internal.http;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Waits for work another thread is finishing during start-up (the store opening, a TLS context
 * being built), which takes moments and which the caller cannot go on without: an interrupt does
 * not cut the wait short, and is set again on the thread once the result is there.
 */
public final class Uninterruptibly {
  private Uninterruptibly() {}

  /** {@code future}'s result, after however long it takes. */
  public static <T> T get(Future<T> future) throws ExecutionException {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return future.get();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
