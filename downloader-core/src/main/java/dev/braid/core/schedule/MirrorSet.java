package dev.braid.core.schedule;

import dev.braid.core.DownloadException;
import dev.braid.core.IntegrityException;
import dev.braid.core.fetch.RangeSource;
import dev.braid.core.fetch.TransientFailure;
import dev.braid.core.http.Requester;
import dev.braid.core.http.OriginHeaders;
import dev.braid.core.http.PhaseRecorder;
import dev.braid.core.probe.ProbeResult;
import dev.braid.core.probe.Prober;
import dev.braid.state.RemoteIdentity;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The URLs one download fetches ranges from: the probed URL and the mirrors that answered with
 * the same file. A connection picks the mirror that promises the most throughput per
 * connection (an unmeasured one first, so each gets measured); a mirror that fails for good is
 * dropped for this download while another remains. Thread-safe.
 */
final class MirrorSet {
  /** One URL of the file and what it delivered so far. */
  static final class Mirror {
    private final RangeSource source;
    private long bytes;
    private long nanos;
    private int connections;
    private int failures;
    private boolean dropped;

    Mirror(RangeSource source) {
      this.source = source;
    }

    RangeSource source() {
      return source;
    }
  }

  private final List<Mirror> mirrors = new ArrayList<>();

  private MirrorSet(List<Mirror> mirrors) {
    this.mirrors.addAll(mirrors);
  }

  /** Where ranges without a mirror come from: the probed URL. */
  RangeSource primary() {
    return mirrors.get(0).source;
  }

  static MirrorSet single(RangeSource primary) {
    return new MirrorSet(List.of(new Mirror(primary)));
  }

  /**
   * Probes every mirror side by side (one byte each). A mirror that cannot be reached is left out;
   * one that serves a different file (length or validators) fails the download: the user named
   * them as copies of one file, and a splice of two files must never happen.
   */
  static MirrorSet probe(Requester http, RangeSource primary, List<URI> others, OriginHeaders headers,
      PhaseRecorder recorder)
      throws IntegrityException {
    List<CompletableFuture<RangeSource>> probes = new ArrayList<>();
    for (URI uri : others) {
      probes.add(CompletableFuture.supplyAsync(() -> {
        try {
          ProbeResult r = Prober.probe(http, uri, headers, recorder, 0, 1);
          if (r.exchange() != null) {
            r.exchange().abort();
          }
          return r.source();
        } catch (TransientFailure | DownloadException e) {
          return null;
        }
      }));
    }
    List<Mirror> live = new ArrayList<>();
    live.add(new Mirror(primary));
    for (int i = 0; i < others.size(); i++) {
      RangeSource id;
      try {
        id = probes.get(i).join();
      } catch (CompletionException e) {
        id = null;
      }
      if (id == null || !id.identity().ranges()) {
        continue;
      }
      String why = difference(primary, id);
      if (why != null) {
        throw new IntegrityException("mirror " + others.get(i) + " serves a different file: " + why);
      }
      live.add(new Mirror(id));
    }
    return new MirrorSet(live);
  }

  private static String difference(RangeSource primary, RangeSource mirror) {
    RemoteIdentity a = primary.identity();
    RemoteIdentity b = mirror.identity();
    if (!Objects.equals(primary.encoding(), mirror.encoding())) {
      return "Content-Encoding " + mirror.encoding() + " instead of " + primary.encoding();
    }
    if (a.length() != b.length()) {
      return "length " + b.length() + " instead of " + a.length();
    }
    if (a.etag() != null && b.etag() != null && !a.etag().equals(b.etag())) {
      return "ETag " + b.etag() + " instead of " + a.etag();
    }
    if (a.lastModified() != null && b.lastModified() != null && !Objects.equals(a.lastModified(), b.lastModified())) {
      return "Last-Modified " + b.lastModified() + " instead of " + a.lastModified();
    }
    return null;
  }

  /** The mirror for a connection's next request: its current one while that stays usable, else the most promising. */
  synchronized Mirror pick(Mirror current) {
    if (current != null && !current.dropped) {
      return current;
    }
    Mirror best = null;
    double bestScore = -1;
    for (Mirror m : mirrors) {
      if (m.dropped) {
        continue;
      }
      double speed = m.nanos > 0 ? m.bytes * 1e9 / m.nanos : Double.MAX_VALUE;
      double score = speed / (m.connections + 1);
      if (score > bestScore) {
        best = m;
        bestScore = score;
      }
    }
    if (best != null) {
      best.connections++;
    }
    if (current != null) {
      current.connections--;
    }
    return best;
  }

  /** A connection stops using {@code m}. */
  synchronized void leave(Mirror m) {
    if (m != null) {
      m.connections--;
    }
  }

  synchronized void delivered(Mirror m, long bytes, long nanos) {
    m.bytes += bytes;
    m.nanos += nanos;
    m.failures = 0;
  }

  /**
   * Counts a failure of {@code m}; returns true when the mirror was dropped because of it (for
   * good, or after {@code maxFailures} in a row) and another mirror remains to carry on.
   */
  synchronized boolean failed(Mirror m, boolean forGood, int maxFailures) {
    m.failures++;
    if (!forGood && m.failures <= maxFailures) {
      return false;
    }
    long others = mirrors.stream().filter(x -> x != m && !x.dropped).count();
    if (others == 0) {
      return false;
    }
    m.dropped = true;
    return true;
  }

  synchronized int live() {
    return (int) mirrors.stream().filter(m -> !m.dropped).count();
  }
}
