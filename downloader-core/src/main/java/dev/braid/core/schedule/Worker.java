package dev.braid.core.schedule;

import dev.braid.core.DownloadException;
import dev.braid.core.fetch.RangeRequest;
import dev.braid.core.fetch.RemoteChanged;
import dev.braid.core.fetch.SegmentStreamer;
import dev.braid.core.fetch.TransientFailure;
import dev.braid.core.http.Exchange;
import dev.braid.core.plan.Segment;
import dev.braid.core.plan.SegmentTable;

/**
 * One connection's loop: take a segment (an orphan, or half of the largest remainder), fetch it
 * with retries from its current offset, repeat until nothing is left to take. Runs on a thread of
 * the {@code Braid}'s worker pool and ends by itself; {@link Attempt#halt} stops it by aborting its
 * exchange, never by interrupting it (an interrupt would close the part file for everyone).
 */
final class Worker implements Runnable {
  private final Attempt attempt;
  private final SegmentTable table;
  private final SegmentStreamer streamer;
  private Exchange pending;
  private Segment pendingSegment;

  /** A worker that starts by streaming {@code first} (already open at {@code segment}'s position), or null. */
  Worker(Attempt attempt, SegmentStreamer streamer, Exchange first, Segment segment) {
    this.attempt = attempt;
    this.table = attempt.table();
    this.streamer = streamer;
    this.pending = first;
    this.pendingSegment = segment;
  }

  @Override
  public void run() {
    try {
      while (!attempt.halted()) {
        Segment seg = pendingSegment != null ? pendingSegment : table.next();
        pendingSegment = null;
        if (seg == null || !fetch(seg)) {
          return;
        }
      }
    } catch (RuntimeException | Error e) {
      attempt.halt(e);
    } finally {
      if (pending != null) {
        pending.abort();
      }
      attempt.workerDone();
    }
  }

  /** Fetches the segment to its (possibly moving) end; false when this worker should stop. */
  private boolean fetch(Segment seg) {
    int failures = 0;
    while (!attempt.halted()) {
      long before = table.position(seg);
      Exchange ex = pending;
      pending = null;
      try {
        if (ex == null) {
          ex = open(seg);
        }
        attempt.track(ex);
        streamer.stream(ex, seg);
        return true;
      } catch (TransientFailure f) {
        if (attempt.halted()) {
          break;
        }
        failures = table.position(seg) > before ? 1 : failures + 1;
        attempt.noteFailure(f);
        if (failures > attempt.settings().maxRetries()) {
          break;
        }
        if (!attempt.identity().ranges()) {
          table.rewind(seg);
        }
        attempt.sleep(Backoff.delay(attempt.settings(), failures, f.retryAfter()));
      } catch (RemoteChanged | DownloadException e) {
        attempt.halt(e);
        break;
      } finally {
        if (ex != null) {
          attempt.untrack(ex);
        }
      }
    }
    table.release(seg);
    return false;
  }

  private Exchange open(Segment seg) throws TransientFailure, RemoteChanged, DownloadException {
    if (!attempt.identity().ranges()) {
      return RangeRequest.openWhole(attempt.http(), attempt.identity(), attempt.headers());
    }
    long from = table.position(seg);
    long to = from + table.remaining(seg);
    return RangeRequest.open(attempt.http(), attempt.identity(), attempt.headers(), from, to);
  }
}
