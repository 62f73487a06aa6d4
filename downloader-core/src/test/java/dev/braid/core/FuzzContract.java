package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;

/**
 * What every fuzz target of this module asserts beyond its parser's own contract: a parser fails
 * only with its documented exception, with a message, and reads its input without an allocation
 * out of proportion to it (the heap of a daemon is shared by every download).
 */
public final class FuzzContract {
  /** More than any parser here needs for an input of the fuzzer's sizes (at most a few KiB). */
  static final long MAX_ALLOCATION = 64L << 20;
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private FuzzContract() {}

  /** A parse step that may throw its parser's documented exception. */
  @FunctionalInterface
  public interface Parse {
    void run() throws Exception;
  }

  /**
   * Runs {@code parse}: it returns (its own checks asserting the result), or throws exactly
   * {@code documented} (not a subclass: a NumberFormatException is no answer) with a message.
   * Anything else (NullPointerException, NumberFormatException, IndexOutOfBoundsException,
   * StackOverflowError) fails, as does an allocation above {@link #MAX_ALLOCATION}.
   */
  public static void holds(Class<? extends Exception> documented, Parse parse) {
    long allocated = allocatedBy(documented, parse);
    if (allocated > MAX_ALLOCATION) {
      // the first run of a path loads (and, fuzzing, instruments) classes on this thread: measured again
      allocated = allocatedBy(documented, parse);
    }
    assertTrue(allocated <= MAX_ALLOCATION, "the parser allocated " + allocated + " bytes");
  }

  private static long allocatedBy(Class<? extends Exception> documented, Parse parse) {
    long before = THREADS.getCurrentThreadAllocatedBytes();
    try {
      parse.run();
    } catch (Exception e) {
      if (e.getClass() != documented) {
        throw new AssertionError("the parser threw " + e.getClass().getName() + ", not " + documented.getName(), e);
      }
      if (e.getMessage() == null || e.getMessage().isBlank()) {
        fail("a " + documented.getSimpleName() + " without a message", e);
      }
    }
    return THREADS.getCurrentThreadAllocatedBytes() - before;
  }

  /** The fuzzer's bytes as header text: one char per byte, as HTTP clients read a header's bytes. */
  public static String latin1(byte[] data) {
    return new String(data, StandardCharsets.ISO_8859_1);
  }

  /** The fuzzer's bytes as text a person typed or a file holds. */
  public static String utf8(byte[] data) {
    return new String(data, StandardCharsets.UTF_8);
  }
}
