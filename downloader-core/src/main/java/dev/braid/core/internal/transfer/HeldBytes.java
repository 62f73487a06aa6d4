package dev.braid.core.internal.transfer;

import dev.braid.core.internal.http.Exchange;
import dev.braid.core.internal.io.PartFile;
import dev.braid.core.internal.plan.SegmentTable;
import dev.braid.store.SegmentRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Compares bytes on disk with the server's: the check for a server whose validators lie. rclone
 * keeps a file's old Last-Modified, and lighttpd its old ETag, for a while after the file is
 * rewritten in place, and If-Range then lets a resume splice old bytes and new. Validators decide
 * first; this runs only where they agreed, on the driver thread, and asks nothing of its own at a
 * resume: the probe starts up to {@value #SAMPLE} bytes before where the resume continues, and
 * those bytes, already on disk, are compared and skipped before the body goes on into the file.
 */
final class HeldBytes {
  /** Bytes per sample: any rewrite with other contents differs within them. */
  static final int SAMPLE = 16 << 10;

  private HeldBytes() {}

  /** How many bytes right before {@code position} are held (done in some segment), at most {@value #SAMPLE}. */
  static int heldBefore(List<SegmentRecord> segments, long position) {
    for (SegmentRecord s : segments) {
      long doneTo = s.start() + s.done();
      if (s.start() < position && position <= doneTo) {
        return (int) Math.min(SAMPLE, position - s.start());
      }
    }
    return 0;
  }

  /** Whether {@code part} holds exactly {@code served} from {@code from}. */
  static boolean onDisk(PartFile part, long from, byte[] served) throws IOException {
    ByteBuffer onDisk = ByteBuffer.allocate(served.length);
    return part.read(onDisk, from) == served.length && Arrays.equals(onDisk.array(), served);
  }

  /**
   * The first {@code held} bytes of a probe's 206 from {@code from}: compared with the part file,
   * then skipped, so that the rest of the body goes into the file from {@link #bodyOffset()}.
   */
  static final class ProbeSample {
    private final Exchange exchange;
    private final long from;
    private final int held;
    private long bodyOffset;
    /** Reading the sample failed: the exchange was aborted, and the workers fetch its bytes afresh. */
    private boolean broken;

    ProbeSample(Exchange exchange, long from, int held) {
      this.exchange = exchange;
      this.from = from;
      this.held = exchange == null ? 0 : held;
      this.bodyOffset = from;
    }

    /**
     * Why the server's bytes are not the ones in {@code part}; null when they match, or when there
     * is nothing to compare: no sample, bytes no longer held after the block check (a damaged
     * block, fetched again), or a body that could not be read (noted by {@code note}).
     */
    String whyChanged(PartFile part, SegmentTable table, Consumer<String> note) throws IOException {
      if (held == 0 || heldBefore(table.snapshot(), from + held) < held) {
        return null;
      }
      byte[] served;
      try {
        served = exchange.body().readNBytes(held);
        if (served.length < held) {
          throw new IOException("the response ended after " + served.length + " of " + held + " bytes");
        }
      } catch (IOException e) {
        broken = true;
        exchange.abort();
        note.accept("the bytes on disk could not be compared with the server's (" + e.getMessage()
            + "): resumed on its validators alone");
        return null;
      }
      bodyOffset = from + held;
      if (!onDisk(part, from, served)) {
        return "the server's bytes " + from + "-" + (from + held - 1) + " are not the ones on disk, though its"
            + " validators did not change (a server that reports a rewritten file's old ETag or Last-Modified)";
      }
      return null;
    }

    /** Where the unread rest of the probe's body starts. */
    long bodyOffset() {
      return bodyOffset;
    }

    /** Whether the probe's exchange can still be streamed by the first worker. */
    boolean usable() {
      return exchange != null && !broken;
    }
  }
}
