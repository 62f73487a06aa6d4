package dev.braid.core.internal.transfer;

import dev.braid.core.TransferMetrics;
import dev.braid.core.internal.http.PhaseRecorder;
import dev.braid.core.internal.limit.Throttle;
import dev.braid.core.internal.metrics.SpeedMeter;
import dev.braid.store.ResumeRecords;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one download's passes are built from: made once by {@link DownloadJob}, handed to each
 * {@link Attempt}, which gives every stage the few of them it uses. Nothing here knows the job or
 * a pass.
 *
 * @param records the resume records of the store the download records its progress in
 * @param storeLocation where that store is, for messages (never with a password)
 * @param route sends the download's requests over its HTTP version
 * @param recorder the download's connection phases and reuse
 * @param budget the {@code Braid}-wide connection budget; each worker holds a permit while it runs
 * @param hosts how many connections the download opens to its host, and what it remembers of it
 * @param workers runs the worker loops, one thread per open connection
 * @param throttle the download's rate limit nested in the {@code Braid}-wide one
 * @param fetched the bytes fetched so far, every pass counted
 * @param meter the download's speed, sampled by the driver
 * @param log what the run tells as it goes (notes, connection changes, restarts)
 */
record DownloadParts(EngineSettings settings, ResumeRecords records, String storeLocation, ProtocolRoute route,
    PhaseRecorder recorder, ConnectionBudget budget, HostConnections hosts, Executor workers, Throttle throttle,
    LongAdder fetched, SpeedMeter meter, DownloadLog log, Deadline deadline) {

  /** The connection phases and reuse so far. */
  TransferMetrics metrics() {
    return recorder.snapshot(fetched.sum());
  }
}
