package dev.braid.cli;

import static dev.braid.cli.CommandModel.option;

import dev.braid.core.InvalidRequestException;
import dev.braid.core.OutageRetry;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * How downloads wait out an outage ({@link OutageRetry}): {@code --retry-for} for {@code get} and
 * {@code daemon}, and aria2's {@code --max-tries} and {@code --retry-wait} for the daemon.
 */
final class OutageOptions {
  private final OptionSpec retryFor = option(Duration.class, "DURATION",
      "wait out an outage: a download that fails for a passing reason (refused or reset connections, timeouts,"
          + " DNS, HTTP 5xx or 429) waits and continues from its bytes, with growing waits, until DURATION (30s, 10m,"
          + " 1h) has passed since its first failure (get: default none, fails at once; daemon: default 1h)",
      "--retry-for").converters(new DurationConverter()).build();
  private final OptionSpec maxTries = option(Integer.class, "N",
      "as aria2: a download is tried at most N times in a row before it fails, with no time bound; 0: no bound"
          + " (default: --retry-for's)", "--max-tries").build();
  private final OptionSpec retryWait = option(Double.class, "SECONDS",
      "as aria2: the wait after a first failed try; it doubles per failure up to 2 minutes (default: 5)",
      "--retry-wait").build();

  /** Adds {@code --retry-for} to get's model. */
  void addToGet(CommandSpec spec) {
    spec.addOption(retryFor);
  }

  /** Adds {@code --retry-for}, {@code --max-tries} and {@code --retry-wait} to the daemon's model. */
  void addToDaemon(CommandSpec spec) {
    for (OptionSpec o : List.of(retryFor, maxTries, retryWait)) {
      spec.addOption(o);
    }
  }

  /** {@code base} with what was given here; a bad value is a usage error. */
  OutageRetry policy(OutageRetry base) throws InvalidRequestException {
    OutageRetry p = base;
    try {
      Double wait = retryWait.getValue();
      if (wait != null) {
        if (wait < 0) {
          throw new InvalidRequestException("--retry-wait cannot be negative, not " + wait);
        }
        // aria2's 0 ("no wait") is the shortest wait Braid takes, as over the RPC
        p = p.withFirstWait(Duration.ofMillis(Math.max(1, Math.round(wait * 1000))));
      }
      Duration d = retryFor.getValue();
      if (d != null) {
        p = p.withRetryFor(d);
      }
      Integer tries = maxTries.getValue();
      if (tries != null) {
        if (d != null) {
          throw new InvalidRequestException("give --retry-for or --max-tries, not both");
        }
        p = p.withMaxTries(tries);
      }
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException("--retry-for/--max-tries/--retry-wait: " + e.getMessage(), e);
    }
    return p;
  }

  /** Whether {@code --retry-for} was given. */
  boolean retryForGiven() {
    return retryFor.getValue() != null;
  }
}
