package dev.braid.core.internal.transfer;

import dev.braid.core.DownloadException;
import dev.braid.core.HttpStatusException;
import dev.braid.core.internal.fetch.RangeRequest;
import dev.braid.core.internal.fetch.RemoteChanged;
import dev.braid.core.internal.fetch.SegmentStreamer;
import dev.braid.core.internal.fetch.TransientFailure;
import dev.braid.core.internal.http.Exchange;
import dev.braid.core.internal.plan.Segment;
import dev.braid.core.internal.plan.SegmentTable;
import java.time.Duration;

/**
 * One connection's loop: take a segment (an orphan, or half of the largest remainder), fetch it
 * with retries from its current offset, repeat until nothing is left to take. Runs on a thread of
 * the {@code Braid}'s worker pool and ends by itself. Others stop or redirect it only through
 * flags plus an abort of its open exchange, never by interrupting it (an interrupt would close
 * the part file for every worker):
 * <ul>
 *   <li>{@link PassControl#halt} stops every worker (pause, fatal error);
 *   <li>{@link #retire()} stops this one; its unfinished remainder goes back to the table;
 *   <li>{@link #replaceConnection()} drops its connection and continues on a fresh one from the
 *       same offset (a connection far slower than the others).
 * </ul>
 */
final class Worker implements Runnable {
  private final PassContext context;
  private final PassControl control;
  private final WorkerPool pool;
  private final SegmentTable table;
  private final SegmentStreamer streamer;
  /** How long an idle worker waits for the window of an in-order download to move before it looks again (a halt waits no longer). */
  private static final long FRONT_WAIT_MILLIS = 50;
  /** Consecutive failures after which a mirror is dropped while another remains. */
  private static final int MIRROR_FAILURES = 2;
  /** The mirror of this worker's requests; null until its first own request (the probe's comes from the main URL). */
  private MirrorSet.Mirror mirror;
  private Exchange pending;
  private Segment pendingSegment;
  private volatile Exchange current;
  private volatile boolean retiring;
  private volatile boolean replacing;
  private volatile boolean opening;

  /** A worker that starts by streaming {@code first} (already open at {@code segment}'s position), or with nothing. */
  Worker(PassContext context, WorkerPool pool, SegmentStreamer streamer, Exchange first, Segment segment) {
    this.context = context;
    this.control = context.control();
    this.pool = pool;
    this.table = context.table();
    this.streamer = streamer;
    this.pending = first;
    this.pendingSegment = segment;
  }

  @Override
  public void run() {
    try {
      while (!stopped()) {
        Segment seg = pendingSegment != null ? pendingSegment : table.next(cutMin());
        pendingSegment = null;
        if (seg == null && table.workBeyondWindow()) {
          // in order: the rest lies beyond the window, which moves as the bytes before it arrive
          table.awaitFront(FRONT_WAIT_MILLIS);
          continue;
        }
        if (seg == null || !fetch(seg)) {
          return;
        }
      }
    } catch (InterruptedException e) {
      // never interrupted by the engine (see the class comment): a stop from outside, as a halt
      Thread.currentThread().interrupt();
      control.halt(null);
    } catch (RuntimeException | Error e) {
      control.halt(e);
    } finally {
      if (pending != null) {
        pending.abort();
      }
      context.mirrors().leave(mirror);
      pool.exited(this);
    }
  }

  /**
   * The least a split that cuts into another connection's request must take:
   * {@link WorkerPool#CUT_SECONDS} of this connection's own throughput (a fair guess for the
   * other's), else the download's; never a cut where the download allows none (a rate limit, HTTP/2).
   */
  private long cutMin() {
    long download = pool.cutMin();
    double own = streamer.bytesPerSecond();
    return own > 0 && download != SegmentTable.NO_CUT ? (long) (own * WorkerPool.CUT_SECONDS) : download;
  }

  /** This connection's throughput while streaming; 0 before its first response. */
  double bytesPerSecond() {
    return streamer.bytesPerSecond();
  }

  /** Bytes this worker has written. */
  long streamed() {
    return streamer.streamed();
  }

  /** Whether it is streaming a response right now. */
  boolean busy() {
    return current != null;
  }

  /** Whether it is waiting for the answer to a request. */
  boolean opening() {
    return opening;
  }

  /** Stop after giving the unfinished part of its segment back. */
  void retire() {
    retiring = true;
    abortCurrent();
    control.wake();
  }

  /** Drop the current connection and go on from the same offset on a fresh one. */
  void replaceConnection() {
    Exchange ex = current;
    if (ex != null) {
      // set only with a response to abort: a stale flag would excuse the next real failure
      replacing = true;
      ex.abort();
    }
  }

  void abortCurrent() {
    Exchange ex = current;
    if (ex != null) {
      ex.abort();
    }
  }

  private boolean stopped() {
    return retiring || control.halted();
  }

  /** A mirror this worker's failure dropped from the download: said in its notes, never silently. */
  private void noteLeftOut(String why) {
    context.note("mirror " + mirror.source().identity().finalUrl() + " left out: " + why);
  }

  /**
   * Fetches the segment to its (possibly moving) end, one bounded request after another on the
   * same kept-alive connection; false when this worker should stop.
   */
  private boolean fetch(Segment seg) {
    FailurePolicy failures = context.failurePolicy();
    while (true) {
      if (stopped()) {
        table.release(seg);
        return false;
      }
      if (table.remaining(seg) <= 0) {
        return true;
      }
      if (pending == null && table.aheadOfWindow(seg)) {
        // in order: the rest of this segment waits for the front; take work nearer to it
        table.release(seg);
        return true;
      }
      long before = table.position(seg);
      Exchange ex = pending;
      pending = null;
      try {
        if (ex == null) {
          opening = true;
          ex = open(seg);
        }
        current = ex;
        opening = false;
        if (stopped()) {
          ex.abort();
          continue;
        }
        // the request's bytes are this mirror's from before the first arrives: the driver may check a
        // piece they complete while the request still runs, and a piece of no known mirror blames
        // none. Whoever writes bytes later (a split, a reopened piece) claims them as it starts
        context.writes(before, before + table.remainingInRequest(seg), mirror);
        long streamStart = context.settings().ticker().read();
        streamer.stream(ex, seg);
        if (mirror != null) {
          context.mirrors().delivered(mirror, table.position(seg) - before, context.settings().ticker().read() - streamStart);
        }
        failures.succeeded();
      } catch (TransientFailure f) {
        if (stopped()) {
          continue;
        }
        if (replacing) {
          // our own abort: not a failure of the server
          replacing = false;
          continue;
        }
        if (mirror != null && context.mirrors().failed(mirror, false, MIRROR_FAILURES)) {
          // that mirror is dropped for this download: go on at once from another one
          noteLeftOut((MIRROR_FAILURES + 1) + " failures in a row, the last: " + f.getMessage());
          failures.succeeded();
          continue;
        }
        boolean progressed = table.position(seg) > before;
        if (!progressed && ex == null && pool.refused(this, f)) {
          table.release(seg);
          return false;
        }
        Duration wait = failures.retryAfter(f, progressed);
        if (wait == null) {
          pool.exhausted();
          table.release(seg);
          return false;
        }
        if (!context.identity().ranges()) {
          table.rewind(seg);
        }
        control.sleep(wait, this::stopped);
      } catch (HttpStatusException e) {
        if (mirror != null && e.status() != 403 && context.mirrors().failed(mirror, true, 0)) {
          noteLeftOut(e.getMessage());
          continue;
        }
        table.release(seg);
        if (e.status() != 403 || !pool.refusedForbidden(this)) {
          control.halt(e);
        }
        // else: a 403 only for an extra connection is a server limit, not a verdict on the file
        return false;
      } catch (RemoteChanged e) {
        // a mirror that now serves another file is dropped; the bytes so far came from the others
        if (mirror != null && context.mirrors().failed(mirror, true, 0)) {
          noteLeftOut(e.getMessage());
          continue;
        }
        table.release(seg);
        control.halt(e);
        return false;
      } catch (DownloadException e) {
        table.release(seg);
        control.halt(e);
        return false;
      } finally {
        opening = false;
        current = null;
      }
    }
  }

  private Exchange open(Segment seg) throws TransientFailure, RemoteChanged, DownloadException {
    if (!context.identity().ranges()) {
      table.requestEnd(seg, Long.MAX_VALUE);
      return RangeRequest.openWhole(context.http(), context.mirrors().primary(), context.headers(), context.recorder());
    }
    long from = table.position(seg);
    long to = table.requestEnd(seg, pool.requestSize(streamer.nextRequestSize(pool.firstRequestSize())));
    mirror = context.mirrors().pick(mirror);
    Exchange ex = RangeRequest.open(context.http(), mirror.source(), context.headers(), context.recorder(), from, to);
    if (mirror.source().claimIfRangeNotice()) {
      context.note(mirror.source().identity().finalUrl() + " answers If-Range with the whole unchanged file (a weak"
          + " validator on its side); its ranges go without If-Range, checked by their own validators");
    }
    return ex;
  }
}
