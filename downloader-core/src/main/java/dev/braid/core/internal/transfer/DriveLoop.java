package dev.braid.core.internal.transfer;

import dev.braid.core.DownloadRequest;
import dev.braid.core.LocalFileException;
import dev.braid.core.internal.metrics.SpeedMeter;
import dev.braid.core.internal.plan.SegmentTable;
import dev.braid.core.time.Ticker;
import dev.braid.store.RemoteIdentity;
import java.net.URI;
import java.util.concurrent.atomic.LongAdder;

/**
 * The driver's loop over a started {@link WorkerPool}: waits for the workers, sampling speed,
 * judging a protocol trial, checkpointing every interval and enforcing the deadline, until none is
 * left, then takes the last checkpoint. Runs on the job's driver thread only and keeps no state
 * beyond one call; the pool, table and commit belong to the {@link Attempt}, and the segments to
 * the table's lock.
 */
final class DriveLoop {
  private final DownloadRequest request;
  private final PassContext pass;
  private final PassControl control;
  private final SegmentTable table;
  private final RemoteIdentity identity;
  private final WorkerPool pool;
  private final Checkpoints commit;
  private final Deadline deadline;
  /** The download's bytes so far, every pass counted, and its speed sampled from them. */
  private final LongAdder fetched;
  private final SpeedMeter meter;
  private final HostConnections hosts;
  private final Ticker ticker;

  /** @param request the pass's request: whether it has a checksum, and so an end check */
  DriveLoop(DownloadRequest request, PassContext pass, WorkerPool pool, Checkpoints commit, Deadline deadline,
      LongAdder fetched, SpeedMeter meter, HostConnections hosts) {
    this.request = request;
    this.pass = pass;
    this.control = pass.control();
    this.table = pass.table();
    this.identity = pass.identity();
    this.pool = pool;
    this.commit = commit;
    this.deadline = deadline;
    this.fetched = fetched;
    this.meter = meter;
    this.hosts = hosts;
    this.ticker = pass.settings().ticker();
  }

  /**
   * Runs the workers until none is left. A {@code measurable} pass that completes reports its
   * throughput, {@code startBytes} fetched at {@code start} (ns), to the download's
   * {@link ProtocolRoute}. Returns whether the completed pass is to be checked ({@link EndCheck}):
   * then its record is not marked complete yet.
   */
  boolean run(URI finalUri, long start, long startBytes, boolean measurable) throws LocalFileException {
    long interval = pass.settings().checkpointInterval().toNanos();
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
        if (deadline.passed() && control.fatal() == null) {
          control.halt(deadline.error());
        }
        meter.sample(now, fetched.sum());
        if (measurable) {
          String stopped = pass.route().judgeTrial(finalUri, fetched.sum() - startBytes, now - start);
          if (stopped != null) {
            pass.note(stopped);
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
      hosts.remember(identity, pool);
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    if (measurable && control.fatal() == null && table.complete()) {
      pass.route().measured(finalUri, fetched.sum() - startBytes, ticker.read() - start);
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
    while (pool.tick(ticker.read())) {
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
