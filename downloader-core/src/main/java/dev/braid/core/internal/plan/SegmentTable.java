package dev.braid.core.internal.plan;

import dev.braid.core.Progress;
import dev.braid.core.time.Ticker;
import dev.braid.store.SegmentRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Every segment of one download and who owns it. Workers call it once per buffer ({@link #claim},
 * {@link #advance}); the lock is held for a few field updates, never across I/O, so it does not
 * serialise the writes themselves.
 *
 * <p>Invariant: {@link #snapshot()} reports only bytes whose write has returned, so a checkpoint
 * that forces the file after taking the snapshot never records more than is durable.
 */
public final class SegmentTable {
  /** End marker of the single segment of a download whose length the server did not give. */
  public static final long UNKNOWN_END = Long.MAX_VALUE;
  /**
   * The owner's pace is measured over windows of this length, so a connection that slows down
   * mid-request (a loss on a long path) is judged by what it does now, not by its fast start.
   */
  static final long PACE_WINDOW_NANOS = 1_000_000_000L;
  /** A cut minimum that forbids every cut into a request in flight, tail steals included. */
  public static final long NO_CUT = Long.MAX_VALUE;

  private final Object lock = new Object();
  private final List<Segment> segments = new ArrayList<>();
  private final SplitPolicy split;
  private final Ticker clock;
  /** In order ({@link #inOrder}): where work is handed out; unbounded until set, before the workers start. */
  private final WorkWindow window = new WorkWindow();

  private SegmentTable(long minSplit, boolean splittable, Ticker clock) {
    this.split = new SplitPolicy(minSplit, splittable);
    this.clock = clock;
  }

  /** A fresh plan: one segment over the whole file, split later as workers arrive. */
  public static SegmentTable fresh(long length, boolean splittable, long minSplit) {
    return fresh(length, splittable, minSplit, Ticker.SYSTEM);
  }

  /** {@link #fresh(long, boolean, long)} on a given clock, which times the owners' pace. */
  public static SegmentTable fresh(long length, boolean splittable, long minSplit, Ticker clock) {
    SegmentTable t = new SegmentTable(minSplit, splittable && length >= 0, clock);
    t.segments.add(new Segment(0, length < 0 ? UNKNOWN_END : length, 0));
    return t;
  }

  /** A plan restored from stored segments, timing the owners' pace on {@code clock}. */
  public static SegmentTable restore(List<SegmentRecord> stored, long minSplit, Ticker clock) {
    SegmentTable t = new SegmentTable(minSplit, true, clock);
    t.segments.addAll(SegmentRecords.segments(stored));
    return t;
  }

  /**
   * Hands out work only within {@code bytes} after the first missing byte from now on, so the
   * file's complete prefix grows steadily (a player can open the part file while the rest
   * arrives): orphans and splits beyond it wait, and an owner reaching it gives its segment back
   * ({@link #aheadOfWindow}). Called before the workers start.
   */
  public void inOrder(long bytes) {
    window.set(bytes);
  }

  /** The bound of {@link #inOrder}, or 0 when work is handed out anywhere. */
  public long window() {
    return window.bytes();
  }

  /**
   * Assigns the unfinished segment that starts at {@code offset} with nothing written yet, for a
   * response already streaming from there (the probe); null if there is none.
   */
  public Segment assignAt(long offset) {
    synchronized (lock) {
      for (Segment s : segments) {
        if (s.position == offset && !s.assigned && s.position < s.end) {
          s.assigned = true;
          return s;
        }
      }
      return null;
    }
  }

  /**
   * Work for an idle worker: the first unassigned unfinished segment, else the second half of the
   * largest in-flight remainder; null when there is nothing left to take. See
   * {@link SplitPolicy#splitPoint} for where a remainder is split and when it is not.
   *
   * @param cutMin the least a split that cuts into an in-flight request must take over;
   *     {@link #NO_CUT} for no cut at all
   */
  public Segment next(long cutMin) {
    synchronized (lock) {
      compact();
      long limit = limit();
      for (Segment s : segments) {
        if (!s.assigned && s.position < s.end && s.position < limit) {
          s.assigned = true;
          return s;
        }
      }
      Segment best = null;
      long bestMid = -1;
      long now = clock.read();
      for (Segment s : segments) {
        long mid = split.splitPoint(s, cutMin, now, limit);
        if (mid >= 0 && (best == null || SplitPolicy.remainder(s) > SplitPolicy.remainder(best))) {
          best = s;
          bestMid = mid;
        }
      }
      if (best == null) {
        return null;
      }
      Segment half = new Segment(bestMid, best.end, bestMid);
      half.assigned = true;
      best.end = bestMid;
      segments.add(half);
      return half;
    }
  }

  /**
   * Merges runs of finished neighbours into one segment, in start order. Every split adds a
   * segment, so without this the table, and every progress view copied from it, grew with the
   * number of splits over a download (62 segments for 48 MiB on 16 connections with a 1-byte
   * minimum split); merged, at most one finished run lies between unfinished segments. Safe for an
   * owner still holding a finished segment: it has nothing left to write before and after.
   */
  private void compact() {
    segments.sort(Comparator.comparingLong(Segment::start));
    for (int i = segments.size() - 1; i > 0; i--) {
      Segment a = segments.get(i - 1);
      Segment b = segments.get(i);
      if (finished(a) && finished(b) && a.end == b.start) {
        a.end = b.end;
        a.position = b.end;
        a.claimedEnd = b.end;
        a.requestEnd = b.end;
        segments.remove(i);
      }
    }
  }

  /** The first offset beyond the window of work ({@link #inOrder}); no bound out of order. Under the lock. */
  private long limit() {
    return window.limit(segments);
  }

  /**
   * Whether the owner of {@code s} stands at or beyond the window ({@link #inOrder}) and should give
   * the segment back ({@link #release}) before its next request, rather than run ahead of the front.
   */
  public boolean aheadOfWindow(Segment s) {
    if (!window.on()) {
      return false;
    }
    synchronized (lock) {
      return window.ahead(s, segments);
    }
  }

  /**
   * Whether unfinished bytes lie beyond the window ({@link #inOrder}): an idle worker that found no
   * work waits for the front to move ({@link #awaitFront}) rather than leave.
   */
  public boolean workBeyondWindow() {
    if (!window.on()) {
      return false;
    }
    synchronized (lock) {
      return window.workBeyond(segments);
    }
  }

  /**
   * Waits up to {@code millis} for a byte to be written (the front may have moved), or until
   * interrupted; the caller then asks {@link #next} again.
   */
  public void awaitFront(long millis) throws InterruptedException {
    synchronized (lock) {
      window.await(lock, millis);
    }
  }

  private static boolean finished(Segment s) {
    return s.end != UNKNOWN_END && s.position == s.end;
  }

  /**
   * The owner is about to request bytes from its position: records and returns the end of that
   * request, at most {@code chunk} bytes and never past the segment's end.
   */
  public long requestEnd(Segment s, long chunk) {
    synchronized (lock) {
      s.requestEnd = s.end == UNKNOWN_END || s.end - s.position <= chunk ? s.end : s.position + chunk;
      s.requestFrom = s.position;
      s.paceFrom = s.position;
      s.paceAt = clock.read();
      s.lastPace = -1;
      return s.requestEnd;
    }
  }

  /** Offset of the next byte the owner should write. */
  public long position(Segment s) {
    synchronized (lock) {
      return s.position;
    }
  }

  /** Bytes left before the owner must stop (a split may have lowered it); 0 when done. */
  public long remaining(Segment s) {
    synchronized (lock) {
      return s.end - s.position;
    }
  }

  /** Bytes left in the owner's current request (a split may have cut it short); 0 when it is done. */
  public long remainingInRequest(Segment s) {
    synchronized (lock) {
      return Math.min(s.end, s.requestEnd) - s.position;
    }
  }

  /** Whether the segment runs to an end the server has not told (unknown length). */
  public boolean openEnded(Segment s) {
    synchronized (lock) {
      return s.end == UNKNOWN_END;
    }
  }

  /**
   * The owner has {@code available} bytes for the segment's current position: returns how many of
   * them it may write (fewer when a split moved the end), and reserves them against splits.
   */
  public int claim(Segment s, int available) {
    synchronized (lock) {
      int allowed = (int) Math.min(available, s.end - s.position);
      s.claimedEnd = s.position + allowed;
      return allowed;
    }
  }

  /** The owner's write of {@code n} claimed bytes returned. */
  public void advance(Segment s, int n) {
    long now = clock.read();
    synchronized (lock) {
      s.position += n;
      s.claimedEnd = s.position;
      window.wrote(lock, segments);
      if (now - s.paceAt >= PACE_WINDOW_NANOS) {
        s.lastPace = (s.position - s.paceFrom) * 1e9 / (now - s.paceAt);
        s.paceFrom = s.position;
        s.paceAt = now;
      }
    }
  }

  /** A download of unknown length reached the end of its body: the segment ends here. */
  public void endAtPosition(Segment s) {
    synchronized (lock) {
      s.end = s.position;
      s.claimedEnd = s.position;
      s.requestEnd = s.position;
    }
  }

  /** Starts a segment over from its first byte (a server without ranges can only resend everything). */
  public void rewind(Segment s) {
    synchronized (lock) {
      s.position = s.start;
      s.claimedEnd = s.start;
      s.requestEnd = s.start;
    }
  }

  /** The owner gives the segment back unfinished; another worker may take it. */
  public void release(Segment s) {
    synchronized (lock) {
      s.assigned = false;
      s.claimedEnd = s.position;
      s.requestEnd = s.position;
    }
  }

  /**
   * Takes back {@code [from, to)}, bytes already written (a piece whose hash failed), as a new
   * unassigned segment for the next idle worker. Every segment overlapping it must have the range
   * in its written prefix. A segment whose owner still writes beyond {@code to} keeps its object,
   * position and end (only its start moves up to {@code to}), so the owner goes on undisturbed;
   * the written part before {@code from} becomes a finished segment of its own.
   *
   * @throws IllegalArgumentException when part of the range is not written
   */
  public void reopen(long from, long to) {
    synchronized (lock) {
      SegmentReopen.reopen(segments, from, to);
    }
  }

  /** Bytes written in all segments. */
  public long doneBytes() {
    synchronized (lock) {
      long sum = 0;
      for (Segment s : segments) {
        sum += s.position - s.start;
      }
      return sum;
    }
  }

  /** Whether every segment is written to its end. */
  public boolean complete() {
    synchronized (lock) {
      for (Segment s : segments) {
        if (s.position < s.end) {
          return false;
        }
      }
      return true;
    }
  }

  /** Whether {@link #next(long)} would hand out work now: an orphan, or a remainder worth splitting. */
  public boolean hasWork(long cutMin) {
    synchronized (lock) {
      long now = clock.read();
      long limit = limit();
      for (Segment s : segments) {
        if (s.position < s.end && s.position < limit && (!s.assigned || split.splitPoint(s, cutMin, now, limit) >= 0)) {
          return true;
        }
      }
      return false;
    }
  }

  /** Every segment as it stands, in start order, for display (a segment map). */
  public List<Progress.Segment> view() {
    List<Progress.Segment> out = new ArrayList<>();
    synchronized (lock) {
      for (Segment s : segments) {
        out.add(new Progress.Segment(s.start, s.end == UNKNOWN_END ? -1 : s.end, s.position - s.start, s.assigned));
      }
    }
    out.sort(Comparator.comparingLong(Progress.Segment::start));
    return out;
  }

  /**
   * Progress to record, in start order, with adjacent finished segments merged so the stored
   * table stays small however often segments were split.
   */
  public List<SegmentRecord> snapshot() {
    List<long[]> copy = new ArrayList<>();
    synchronized (lock) {
      for (Segment s : segments) {
        copy.add(new long[] {s.start, s.end == UNKNOWN_END ? -1 : s.end, s.position});
      }
    }
    return SegmentRecords.merged(copy);
  }
}
