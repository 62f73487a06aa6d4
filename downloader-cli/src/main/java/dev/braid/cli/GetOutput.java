package dev.braid.cli;

import java.time.Duration;

/**
 * What a get prints as it follows its downloads, as its options chose: one value for the get and
 * the follower it hands the work to.
 *
 * @param quiet no progress line and no line per completed download (-q)
 * @param json one JSON event per line instead of text (--json)
 * @param progressInterval how often --json tells progress
 * @param outageHint what a download failed by an outage adds to its error line ({@link OutageHint})
 * @param debug a single download's course, metrics and stack trace (--debug)
 */
record GetOutput(boolean quiet, boolean json, Duration progressInterval, String outageHint, boolean debug) {}
