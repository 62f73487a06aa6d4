package dev.braid.core.schedule;

import dev.braid.core.DownloadException;
import dev.braid.core.fetch.RangeSource;
import dev.braid.core.fetch.RemoteChanged;
import dev.braid.core.fetch.TransientFailure;
import dev.braid.core.io.PartFile;
import dev.braid.store.SegmentRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Compares samples of the bytes on disk with the server's bytes at the same offsets: the check for
 * a server whose validators lie. rclone keeps a file's old Last-Modified, and lighttpd its old ETag,
 * for a while after the file is rewritten in place, and If-Range then lets a resume splice old
 * bytes and new. Validators still decide first; this runs only where they agreed, on the driver
 * thread. A sample that cannot be fetched (a network failure) proves nothing either way: the
 * download goes on on the validators alone, with a note.
 */
final class HeldBytes {
  /** Bytes per sample: any rewrite with other contents differs within them. */
  static final int SAMPLE = 16 << 10;

  /** A held part of the file, {@code to} exclusive. */
  record Span(long from, long to) {}

  private HeldBytes() {}

  /**
   * What a resume compares: the start of the first held run (fetched longest ago) and the end of
   * the one that reaches furthest (fetched last), so that a rewrite at any time before this run shows.
   */
  static List<Span> resumeSamples(List<SegmentRecord> segments) {
    List<SegmentRecord> held = segments.stream().filter(s -> s.done() > 0).toList();
    if (held.isEmpty()) {
      return List.of();
    }
    SegmentRecord first = held.stream().min(Comparator.comparingLong(SegmentRecord::start)).get();
    SegmentRecord furthest = held.stream().max(Comparator.comparingLong(s -> s.start() + s.done())).get();
    List<Span> spans = new ArrayList<>();
    spans.add(new Span(first.start(), first.start() + Math.min(SAMPLE, first.done())));
    long end = furthest.start() + furthest.done();
    Span last = new Span(Math.max(furthest.start(), end - SAMPLE), end);
    if (last.from() >= spans.get(0).to()) {
      spans.add(last);
    }
    return spans;
  }

  /**
   * Why the server's bytes at {@code spans} are not the ones in {@code part}; null when every sample
   * matches, or when one could not be fetched.
   */
  static String whyChanged(DownloadJob job, RangeSource source, PartFile part, List<Span> spans) throws IOException {
    for (Span s : spans) {
      int size = (int) (s.to() - s.from());
      byte[] served;
      try {
        served = SameBytes.sample(job.route(), source, job.originHeaders(), job.recorder(), s.from(), size);
      } catch (RemoteChanged e) {
        return e.getMessage();
      } catch (TransientFailure | DownloadException | IOException e) {
        job.note("the bytes on disk could not be compared with the server's (" + e.getMessage()
            + "): going on on its validators alone");
        return null;
      }
      ByteBuffer held = ByteBuffer.allocate(size);
      if (part.read(held, s.from()) != size || !Arrays.equals(held.array(), served)) {
        return "the server's bytes " + s.from() + "-" + (s.to() - 1) + " are not the ones on disk, though its"
            + " validators did not change (a server that reports a rewritten file's old ETag or Last-Modified)";
      }
    }
    return null;
  }
}
