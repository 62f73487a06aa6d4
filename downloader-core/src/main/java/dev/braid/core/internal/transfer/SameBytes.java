package dev.braid.core.internal.transfer;

import dev.braid.core.DownloadException;
import dev.braid.core.internal.fetch.RangeRequest;
import dev.braid.core.internal.fetch.RangeSource;
import dev.braid.core.internal.fetch.RemoteChanged;
import dev.braid.core.internal.fetch.TransientFailure;
import dev.braid.core.internal.http.Exchange;
import dev.braid.core.internal.http.OriginHeaders;
import dev.braid.core.internal.http.PhaseRecorder;
import dev.braid.core.internal.http.Requester;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Tells whether a mirror whose validators differ from the primary's (the usual case across
 * servers: each computes its own ETag and keeps its own modification time) serves the same bytes,
 * by fetching the same samples from both: the start, the middle and the end of a file of the same
 * length. Samples cannot prove identity the way a validator does, but a file of the same length
 * that differs where compared is no copy, and with {@code --checksum} the digest of the whole
 * result is checked anyway. Each request checks its own server's validators, so either one
 * changing is still caught later.
 */
final class SameBytes {
  static final int SAMPLE = 64 << 10;

  private SameBytes() {}

  /** Why the mirror cannot be shown to serve the primary's bytes; null when every sample matches. */
  static String whyNot(Requester http, RangeSource primary, RangeSource mirror, OriginHeaders headers,
      PhaseRecorder recorder) {
    long length = primary.identity().length();
    int size = (int) Math.min(SAMPLE, length);
    Set<Long> starts = new LinkedHashSet<>();
    starts.add(0L);
    starts.add(Math.max(0, length / 2 - size / 2));
    starts.add(length - size);
    for (long from : starts) {
      try {
        byte[] a = sample(http, primary, headers, recorder, from, size);
        byte[] b = sample(http, mirror, headers, recorder, from, size);
        if (!Arrays.equals(a, b)) {
          return "its bytes " + from + "-" + (from + size - 1) + " differ from the main URL's";
        }
      } catch (TransientFailure | RemoteChanged | DownloadException | IOException e) {
        return "its bytes could not be compared with the main URL's (" + e.getMessage() + ")";
      }
    }
    return null;
  }

  /** The server's {@code size} bytes from {@code from}, read whole; the exchange closed or aborted. */
  static byte[] sample(Requester http, RangeSource src, OriginHeaders headers, PhaseRecorder recorder, long from,
      int size) throws TransientFailure, RemoteChanged, DownloadException, IOException {
    Exchange ex = RangeRequest.open(http, src, headers, recorder, from, from + size);
    boolean whole = false;
    try {
      byte[] bytes = ex.body().readNBytes(size);
      whole = bytes.length == size;
      if (!whole) {
        throw new IOException("the server sent " + bytes.length + " of " + size + " bytes");
      }
      return bytes;
    } finally {
      if (whole && ex.contentLength() == size) {
        ex.close();
      } else {
        ex.abort();
      }
    }
  }
}
