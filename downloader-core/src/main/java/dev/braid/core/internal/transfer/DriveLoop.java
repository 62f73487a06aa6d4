package dev.braid.core.internal.transfer;

import dev.braid.core.DownloadRequest;
import dev.braid.core.LocalFileException;
import dev.braid.core.internal.plan.SegmentTable;
import dev.braid.core.time.Ticker;
import dev.braid.store.RemoteIdentity;
import java.net.URI;

/**
 * The driver's loop over a started {@link WorkerPool}: waits for the workers, sampling speed,
 * judging a protocol trial, checkpointing every interval and enforcing the deadline, until none is
 * left, then takes the last checkpoint. Runs on the job's driver thread only and keeps no state
 * beyond one call; the pool, table and commit belong to the {@link Attempt}, and the segments to
 * the table's lock.
 */
final class DriveLoop {
  private final DownloadJob job;
  private final DownloadRequest request;
  private final PassControl control;
  private final SegmentTable table;
  private final RemoteIdentity identity;
  private final WorkerPool pool;
  private final PartCommit commit;

  DriveLoop(DownloadJob job, PassControl control, SegmentTable table, RemoteIdentity identity, WorkerPool pool,
      PartCommit commit) {
    this.job = job;
    this.request = job.request();
    this.control = control;
    this.table = table;
    this.identity = identity;
    this.pool = pool;
    this.commit = commit;
  }

  /**
   * Runs the workers until none is left. A {@code measurable} pass that completes reports its
   * throughput, {@code startBytes} fetched at {@code start} (ns), to the download's
   * {@link ProtocolRoute}. Returns whether the completed pass is to be checked ({@link EndCheck}):
   * then its record is not marked complete yet.
   */
  boolean run(URI finalUri, long start, long startBytes, boolean measurable) throws LocalFileException {
    Ticker ticker = job.settings().ticker();
    long interval = job.settings().checkpointInterval().toNanos();
    long next = start + interval;
    boolean interrupted = false;
    try {
      // a piece that fails its hash in the last check goes back to the table: the workers run again for it
      while (pool.tick(ticker.read()) || commit.recheckPieces()) {
        try {
          pool.await(200);
        } catch (InterruptedException e) {
          // the driver thread is ours alone; an interrupt means stop as a pause would
          interrupted = true;
          control.halt(null);
        }
        long now = ticker.read();
        if (job.deadlinePassed() && control.fatal() == null) {
          control.halt(job.deadlineError());
        }
        job.meter().sample(now, job.fetched().sum());
        if (measurable) {
          String stopped = job.route().judgeTrial(finalUri, job.fetched().sum() - startBytes, now - start);
          if (stopped != null) {
            job.note(stopped);
          }
        }
        if (now >= next) {
          commit.checkpoint(false);
          next = now + interval;
        }
      }
    } catch (LocalFileException | RuntimeException e) {
      // a checkpoint failed: stop the workers before the part file closes under them
      control.halt(e);
      awaitWorkers();
      throw e;
    } finally {
      job.hostConnections().remember(identity, pool);
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    if (measurable && control.fatal() == null && table.complete()) {
      job.route().measured(finalUri, job.fetched().sum() - startBytes, ticker.read() - start);
    }
    boolean done = control.fatal() == null && table.complete();
    boolean endCheck = done && EndCheck.due(request, start, ticker.read());
    // with every byte done and nothing to verify, the last checkpoint also marks the record
    // complete, before the rename: one transaction fewer per file. A crash between them leaves a
    // complete record with its part file, which the planner resumes with nothing to fetch
    commit.checkpoint(done && request.checksum().isEmpty() && !endCheck);
    return endCheck;
  }

  private void awaitWorkers() {
    boolean interrupted = false;
    while (pool.tick(job.settings().ticker().read())) {
      try {
        pool.await(200);
      } catch (InterruptedException again) {
        // keep waiting: returning while workers still write would release the part file under them
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
