package dev.braid.core.internal.transfer;

import dev.braid.core.HttpVersion;
import dev.braid.core.time.Ticker;
import java.time.Clock;
import java.time.Duration;

/**
 * Knobs of the engine shared by every download of one {@code Braid}.
 *
 * @param maxRetries failed tries in a row (without progress) after which a worker gives its segment up
 * @param bufferSize bytes per worker buffer
 * @param checkpointInterval how often progress is forced to disk and recorded
 * @param firstBackoff the wait after the first failure; it doubles per failure, with jitter
 * @param maxBackoff the longest wait between tries (a server's Retry-After may ask for more)
 * @param lowestSpeed bytes per second under which a connection counts as slow (0: only stalls and
 *     the comparison with the other connections count)
 * @param deadline the longest a download may take from start to finish, or null for no limit
 * @param httpVersion the HTTP version of https requests, or {@link HttpVersion#AUTO} to choose per host
 * @param ticker the time backoff, deadlines, speeds, slow connections and rate limits measure
 * @param clock the wall time hosts' remembered connection counts and protocols are stamped and aged with
 */
public record EngineSettings(int maxRetries, int bufferSize, Duration checkpointInterval, Duration firstBackoff,
    Duration maxBackoff, long lowestSpeed, Duration deadline, HttpVersion httpVersion,
    Ticker ticker, Clock clock) {}
