package dev.braid.core.schedule;

import dev.braid.core.fetch.RangeSource;
import dev.braid.core.io.PartFile;
import dev.braid.store.RemoteIdentity;
import java.io.IOException;
import java.util.List;

/**
 * The last look before a long pass's file is renamed: whether the server still serves the bytes
 * that were written first. A file rewritten in place under a running download is spliced, old
 * bytes and new, where the server's validators lag behind the file (rclone's), and only its bytes
 * show it. The first bytes of the file are compared ({@link HeldBytes}): the pass fetched them
 * first, or checked them when it resumed. A server without ranges is not checked: a page generated
 * for each request may carry new validators every time, and a check would refuse it for good.
 */
final class EndCheck {
  /** No pass shorter than this is checked: a batch of small files pays nothing for it. */
  static final long MIN_PASS_NANOS = 1_000_000_000L;
  /** The check costs about one probe's time: it runs only when that is at most 1/50 of the pass. */
  static final long PROBES_PER_PASS = 50;

  private EndCheck() {}

  static boolean due(RemoteIdentity identity, long passNanos, long probeNanos) {
    return identity.ranges() && identity.length() > 0 && passNanos >= Math.max(MIN_PASS_NANOS, PROBES_PER_PASS * probeNanos);
  }

  /** Why the server's first bytes are no longer those on disk; null when they are, or could not be fetched. */
  static String whyChanged(DownloadJob job, RangeSource source, PartFile part) throws IOException {
    long length = source.identity().length();
    return HeldBytes.whyChanged(job, source, part, List.of(new HeldBytes.Span(0, Math.min(HeldBytes.SAMPLE, length))));
  }
}
