package dev.braid.rpc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.braid.core.OutageRetry;
import java.time.Duration;
import java.util.Set;

/**
 * aria2's {@code max-tries} and {@code retry-wait}, and Braid's {@code braid-retry-for}, as an
 * {@link OutageRetry}: a download that fails for a passing reason waits {@code retry-wait} seconds
 * (doubling per failure up to the policy's longest wait) and is tried again, at most
 * {@code max-tries} times in a row (0: no bound), or until {@code braid-retry-for} seconds have
 * passed since its first failure. The same keys in addUri, changeOption and changeGlobalOption.
 */
final class RetryOption {
  static final String MAX_TRIES = "max-tries";
  static final String RETRY_WAIT = "retry-wait";
  static final String RETRY_FOR = "braid-retry-for";
  static final Set<String> KEYS = Set.of(MAX_TRIES, RETRY_WAIT, RETRY_FOR);

  private RetryOption() {}

  /** Whether {@code options} holds any of these keys. */
  static boolean given(ObjectNode options) {
    return KEYS.stream().anyMatch(options::has);
  }

  /** {@code base} with what {@code options} ask; a bad value fails the call with the option's name. */
  static OutageRetry apply(OutageRetry base, ObjectNode options) throws RpcException {
    if (options.has(MAX_TRIES) && options.has(RETRY_FOR)) {
      throw RpcException.failed("give " + MAX_TRIES + " or " + RETRY_FOR + ", not both");
    }
    OutageRetry p = base;
    try {
      if (options.has(RETRY_WAIT)) {
        double seconds = number(options, RETRY_WAIT);
        // aria2's 0 is "no wait": the shortest wait Braid takes
        p = p.withFirstWait(Duration.ofMillis(Math.max(1, Math.round(seconds * 1000))));
      }
      if (options.has(MAX_TRIES)) {
        p = p.withMaxTries((int) number(options, MAX_TRIES));
      }
      if (options.has(RETRY_FOR)) {
        p = p.withRetryFor(Duration.ofMillis(Math.round(number(options, RETRY_FOR) * 1000)));
      }
    } catch (IllegalArgumentException e) {
      throw RpcException.failed("max-tries/retry-wait/braid-retry-for: " + e.getMessage());
    }
    return p;
  }

  /** Shows {@code p} under the three keys, as getOption and getGlobalOption do (seconds; retry-for empty for none). */
  static void shownIn(ObjectNode o, OutageRetry p) {
    o.put(MAX_TRIES, Integer.toString(p.maxTries()));
    o.put(RETRY_WAIT, seconds(p.firstWait()));
    o.put(RETRY_FOR, p.retryFor().map(RetryOption::seconds).orElse(""));
  }

  private static String seconds(Duration d) {
    return d.toMillis() % 1000 == 0 ? Long.toString(d.toSeconds()) : Double.toString(d.toMillis() / 1000.0);
  }

  private static double number(ObjectNode options, String key) throws RpcException {
    String text = AddOptions.text(options, key);
    try {
      double n = Double.parseDouble(text.strip());
      if (n >= 0 && n <= Integer.MAX_VALUE) {
        return n;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw RpcException.failed("option " + key + " must be a number of 0 or more, not '" + text + "'");
  }
}
