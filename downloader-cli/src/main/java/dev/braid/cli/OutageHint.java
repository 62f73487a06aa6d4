package dev.braid.cli;

/** What a get that failed for a passing reason (an outage) adds to its one error line: how to go on. */
final class OutageHint {
  private OutageHint() {}

  /** The hint, appended to the error; {@code retryForGiven}: the get waited already, so only the resume is left. */
  static String of(boolean retryForGiven) {
    return "; the same command continues from the bytes kept"
        + (retryForGiven ? "" : ", or wait out the outage with --retry-for DURATION (e.g. 1h)");
  }
}
