package dev.braid.core.internal.transfer;

import dev.braid.core.DownloadException;
import dev.braid.core.internal.fetch.RangeSource;
import dev.braid.core.internal.fetch.TransientFailure;
import dev.braid.core.internal.http.Requester;
import dev.braid.core.internal.http.OriginHeaders;
import dev.braid.core.internal.http.PhaseRecorder;
import dev.braid.core.internal.probe.ProbeResult;
import dev.braid.core.internal.probe.Prober;
import dev.braid.store.RemoteIdentity;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

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
    /** Served a piece whose hash failed: no new requests while a mirror that did not remains. */
    private boolean demoted;
    private int badPieces;

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

  /** The probed URL's mirror: whose bytes the probe's response wrote. */
  Mirror first() {
    return mirrors.get(0);
  }

  /** Where ranges without a mirror come from: the probed URL. */
  RangeSource primary() {
    return mirrors.get(0).source;
  }

  /**
   * The mirrors a pass of {@code probe}'s file uses: the probed URL alone when there are no
   * others or the file cannot be split (no ranges, no length), else {@link #probe} of {@code others}.
   */
  static MirrorSet forPass(ProbeResult probe, List<URI> others, Requester http, OriginHeaders headers,
      PhaseRecorder recorder, Consumer<String> notes) {
    RemoteIdentity identity = probe.identity();
    if (others.isEmpty() || !identity.ranges() || identity.length() <= 0) {
      return new MirrorSet(List.of(new Mirror(probe.source())));
    }
    return probe(http, probe.source(), others, headers, recorder, notes);
  }

  /**
   * Probes every mirror side by side (one byte each) and keeps those that serve the primary's
   * file: the same length and coding, and the same validators or, where those differ or are
   * missing, the same bytes where {@link SameBytes} compares them. A mirror that cannot be reached or shown to serve
   * the same file is left out with a line to {@code notes}; never fatal, never spliced.
   */
  private static MirrorSet probe(Requester http, RangeSource primary, List<URI> others, OriginHeaders headers,
      PhaseRecorder recorder, Consumer<String> notes) {
    List<CompletableFuture<Verdict>> checks = new ArrayList<>();
    for (URI uri : others) {
      checks.add(CompletableFuture.supplyAsync(() -> check(http, primary, uri, headers, recorder)));
    }
    List<Mirror> live = new ArrayList<>();
    live.add(new Mirror(primary));
    for (int i = 0; i < others.size(); i++) {
      Verdict v;
      try {
        v = checks.get(i).join();
      } catch (CompletionException e) {
        v = new Verdict(null, "its check failed: " + e.getCause());
      }
      if (v.why() == null) {
        live.add(new Mirror(v.source()));
      } else {
        notes.accept("mirror " + others.get(i) + " left out: " + v.why());
      }
    }
    return new MirrorSet(live);
  }

  /** What the check of one mirror found: its source, and why it is left out (null when it is not). */
  private record Verdict(RangeSource source, String why) {
    static Verdict out(String why) {
      return new Verdict(null, why);
    }
  }

  private static Verdict check(Requester http, RangeSource primary, URI uri, OriginHeaders headers,
      PhaseRecorder recorder) {
    RangeSource source;
    try {
      ProbeResult r = Prober.probe(http, uri, headers, recorder, 0, 1);
      if (r.exchange() != null) {
        r.exchange().abort();
      }
      source = r.source();
    } catch (TransientFailure | DownloadException e) {
      return Verdict.out("it cannot be reached (" + e.getMessage() + ")");
    }
    if (!source.identity().ranges()) {
      return Verdict.out("it does not serve byte ranges");
    }
    String why = difference(primary, source);
    if (why == null) {
      return new Verdict(source, null);
    }
    if (primary.identity().length() != source.identity().length()
        || !Objects.equals(primary.encoding(), source.encoding())) {
      return Verdict.out("it serves a different file: " + why);
    }
    String notSame = SameBytes.whyNot(http, primary, source, headers, recorder);
    return notSame == null ? new Verdict(source, null)
        : Verdict.out("its validators do not show it is the same file (" + why + ") and " + notSame);
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
    // the validators prove the same file only when both sides have them and all agree; a missing
    // one proves nothing, so the bytes are compared then too
    if (a.etag() == null && a.lastModified() == null) {
      return "no validators on the main URL";
    }
    if (!Objects.equals(a.etag(), b.etag())) {
      return "ETag " + b.etag() + " instead of " + a.etag();
    }
    if (!Objects.equals(a.lastModified(), b.lastModified())) {
      return "Last-Modified " + b.lastModified() + " instead of " + a.lastModified();
    }
    return null;
  }

  /** The mirror for a connection's next request: its current one while that stays usable, else the most promising. */
  synchronized Mirror pick(Mirror current) {
    boolean clean = mirrors.stream().anyMatch(m -> !m.dropped && !m.demoted);
    if (current != null && !current.dropped && !(current.demoted && clean)) {
      return current;
    }
    Mirror best = null;
    double bestScore = -1;
    for (Mirror m : mirrors) {
      if (m.dropped || (m.demoted && clean)) {
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

  /**
   * {@code m} served bytes of a piece whose hash failed: it is demoted (no new requests while a
   * mirror without bad pieces remains), and after {@code dropAfter} bad pieces dropped while
   * another remains. Returns what happened, for the download's notes.
   */
  synchronized String badPiece(Mirror m, int dropAfter) {
    m.badPieces++;
    m.demoted = true;
    String url = m.source.identity().finalUrl();
    if (m.dropped) {
      return url + " (already left out) had served " + m.badPieces + " bad pieces";
    }
    if (m.badPieces >= dropAfter && mirrors.stream().anyMatch(x -> x != m && !x.dropped)) {
      m.dropped = true;
      return "mirror " + url + " left out: " + m.badPieces + " pieces it served failed their hash";
    }
    boolean clean = mirrors.stream().anyMatch(x -> !x.dropped && !x.demoted);
    return "mirror " + url + " served a piece that failed its hash (" + m.badPieces + " so far); "
        + (clean ? "its ranges go to the other mirrors" : "no mirror without bad pieces is left, so it stays in use");
  }

  synchronized int live() {
    return (int) mirrors.stream().filter(m -> !m.dropped).count();
  }
}
