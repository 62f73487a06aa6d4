package dev.braid.core.internal.transfer;

import dev.braid.core.DownloadException;
import dev.braid.core.internal.fetch.RangeRequest;
import dev.braid.core.internal.fetch.RangeSource;
import dev.braid.core.internal.fetch.RemoteChanged;
import dev.braid.core.internal.fetch.TransientFailure;
import dev.braid.core.internal.fetch.Validators;
import dev.braid.core.internal.http.Exchange;
import dev.braid.core.internal.http.OriginHeaders;
import dev.braid.core.internal.http.PhaseRecorder;
import dev.braid.core.internal.http.Requester;
import dev.braid.core.internal.verify.BlockSums;
import dev.braid.store.RemoteIdentity;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.zip.CRC32C;

/**
 * Tells whether a new URL for a partial download (a refreshed link) serves the file whose blocks
 * are on disk. The same length and the same strong validator prove it; where the new server's
 * validators differ (a new signed URL on another edge computes its own), up to
 * {@value #SAMPLES} finished blocks (the first, the middle and the last on record) are fetched
 * from it and must have the CRC32C recorded for them. On the driver thread, before any byte of
 * the new URL is written.
 */
final class LinkProof {
  static final int SAMPLES = 3;

  private LinkProof() {}

  /** Why {@code fresh} cannot be shown to serve the file recorded as {@code recorded}; null when it is. */
  static String whyNot(Requester http, RangeSource fresh, RemoteIdentity recorded, Map<Integer, Integer> sums,
      OriginHeaders headers, PhaseRecorder recorder) {
    RemoteIdentity now = fresh.identity();
    if (now.length() != recorded.length() || recorded.length() < 0) {
      return "it serves " + now.length() + " bytes, the partial file has " + recorded.length();
    }
    if (!now.ranges()) {
      return "it does not serve byte ranges";
    }
    if (Validators.isStrong(recorded.etag()) && Validators.whyNotResumable(recorded, now) == null) {
      return null;
    }
    if (sums.isEmpty()) {
      return "its validators differ and no finished block is on disk to compare its bytes with";
    }
    for (int k : samples(sums)) {
      long from = k * BlockSums.BLOCK;
      long to = Math.min(from + BlockSums.BLOCK, recorded.length());
      try {
        if (crc(http, fresh, headers, recorder, from, to) != Integer.toUnsignedLong(sums.get(k))) {
          return "its validators differ and its bytes " + from + "-" + (to - 1) + " are not the ones on disk";
        }
      } catch (TransientFailure | RemoteChanged | DownloadException | IOException e) {
        return "its validators differ and its bytes could not be compared with those on disk (" + e.getMessage() + ")";
      }
    }
    return null;
  }

  private static List<Integer> samples(Map<Integer, Integer> sums) {
    List<Integer> blocks = new ArrayList<>(new TreeSet<>(sums.keySet()));
    TreeSet<Integer> picked = new TreeSet<>();
    picked.add(blocks.get(0));
    picked.add(blocks.get(blocks.size() / 2));
    picked.add(blocks.get(blocks.size() - 1));
    return List.copyOf(picked);
  }

  private static long crc(Requester http, RangeSource src, OriginHeaders headers, PhaseRecorder recorder, long from, long to)
      throws TransientFailure, RemoteChanged, DownloadException, IOException {
    Exchange ex = RangeRequest.open(http, src, headers, recorder, from, to);
    boolean whole = false;
    try {
      CRC32C crc = new CRC32C();
      byte[] buf = new byte[64 << 10];
      long left = to - from;
      InputStream in = ex.body();
      while (left > 0) {
        int n = in.read(buf, 0, (int) Math.min(buf.length, left));
        if (n < 0) {
          throw new IOException("the server sent " + (to - from - left) + " of " + (to - from) + " bytes");
        }
        crc.update(buf, 0, n);
        left -= n;
      }
      whole = true;
      return crc.getValue();
    } finally {
      if (whole && ex.contentLength() == to - from) {
        ex.close();
      } else {
        ex.abort();
      }
    }
  }
}
