package dev.braid.core.internal.transfer;

import dev.braid.core.internal.fetch.SegmentStreamer;
import dev.braid.core.internal.http.OriginHeaders;
import dev.braid.core.internal.http.PhaseRecorder;
import dev.braid.core.internal.http.Protocol;
import dev.braid.core.internal.http.Requester;
import dev.braid.core.internal.plan.SegmentTable;
import dev.braid.core.internal.verify.BlockSums;
import dev.braid.core.internal.verify.BlockTracker;
import dev.braid.store.RemoteIdentity;
import java.net.URI;
import java.util.function.Consumer;

/**
 * What the workers of one pass share, fixed once the pass has its plan: the segment table, the
 * remote file and its mirrors, how to send requests, the block sums and the pass's stop signal.
 * Handed to the {@link WorkerPool} and every {@link Worker} in place of the pass itself, so
 * nothing of theirs calls back into {@link Attempt}.
 */
final class PassContext {
  private final SegmentTable table;
  private final RemoteIdentity identity;
  private final URI finalUri;
  private final MirrorSet mirrors;
  private final ProtocolRoute route;
  private final OriginHeaders headers;
  private final PhaseRecorder recorder;
  private final EngineSettings settings;
  /** Sums of the finished blocks; null when the download cannot resume anyway (no ranges or no length). */
  private final BlockSums sums;
  private final PassControl control;
  /** Tells the user about the download's course (the job's notes). */
  private final Consumer<String> notes;
  /** Which mirror wrote which bytes, for piece hashes; null without them. */
  private final Provenance provenance;

  PassContext(SegmentTable table, RemoteIdentity identity, MirrorSet mirrors, ProtocolRoute route, OriginHeaders headers,
      PhaseRecorder recorder, EngineSettings settings, BlockSums sums, PassControl control, Consumer<String> notes,
      Provenance provenance) {
    this.table = table;
    this.identity = identity;
    this.finalUri = URI.create(identity.finalUrl());
    this.mirrors = mirrors;
    this.route = route;
    this.headers = headers;
    this.recorder = recorder;
    this.settings = settings;
    this.sums = sums;
    this.control = control;
    this.notes = notes;
    this.provenance = provenance;
  }

  /** Records that {@code mirror} (null: the probed URL) writes {@code [from, to)} from now on, when piece hashes need to know. */
  void writes(long from, long to, MirrorSet.Mirror mirror) {
    if (provenance != null) {
      provenance.writes(from, to, mirror == null ? mirrors.first() : mirror);
    }
  }

  /** Reports {@code what} to the user as one of the download's notes. */
  void note(String what) {
    notes.accept(what);
  }

  SegmentTable table() {
    return table;
  }

  RemoteIdentity identity() {
    return identity;
  }

  MirrorSet mirrors() {
    return mirrors;
  }

  Requester http() {
    return route;
  }

  /** The download's HTTP version, for the driver: a protocol trial is judged and measured on it. */
  ProtocolRoute route() {
    return route;
  }

  OriginHeaders headers() {
    return headers;
  }

  PhaseRecorder recorder() {
    return recorder;
  }

  EngineSettings settings() {
    return settings;
  }

  PassControl control() {
    return control;
  }

  /** A new retrying loop's count of failures. */
  FailurePolicy failurePolicy() {
    return new FailurePolicy(settings, control, recorder);
  }

  /** A new connection's tracker of whole-block sums, or null when this download keeps none. */
  BlockTracker blockTracker() {
    return sums == null ? null : sums.tracker();
  }

  /** Whether this pass's ranges are streams of one HTTP/2 connection (a trial may end it mid-pass). */
  boolean overHttp2() {
    return route.protocolFor(finalUri) == Protocol.HTTP_2;
  }

  /** The first request of a new connection when {@code connections} share the file: see {@link SegmentStreamer#firstRequestSize}. */
  long firstRequestSize(int connections) {
    return SegmentStreamer.firstRequestSize(identity.length(), connections);
  }
}
