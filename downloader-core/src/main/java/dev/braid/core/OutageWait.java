package dev.braid.core;

import dev.braid.store.DownloadState;
import java.time.Instant;

/**
 * A download waiting out an outage ({@link Download#outageWait()}): its last run failed for a
 * passing reason and, still {@link DownloadState#QUEUED}, it runs again at {@link #nextTry()}
 * (see {@link OutageRetry}).
 *
 * @param nextTry when the next run may start (the queue starts it then, as a slot allows)
 * @param failedRuns the runs that failed in a row, the last one included
 * @param since when the first of them failed
 * @param lastError the last run's error message
 * @param lastFailure the last run's failure, its kind and detail
 */
public record OutageWait(Instant nextTry, int failedRuns, Instant since, String lastError, DownloadFailure lastFailure) {}
