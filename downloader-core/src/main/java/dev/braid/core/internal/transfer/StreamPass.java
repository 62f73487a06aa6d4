package dev.braid.core.internal.transfer;

import dev.braid.core.DownloadException;
import dev.braid.core.DownloadPausedException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.IntegrityException;
import dev.braid.core.NetworkException;
import dev.braid.core.RemoteChangedException;
import dev.braid.core.internal.fetch.RangesRefused;
import dev.braid.core.internal.fetch.RemoteChanged;
import dev.braid.core.internal.fetch.SegmentStreamer;
import dev.braid.core.internal.fetch.TransientFailure;
import dev.braid.core.internal.http.Exchange;
import dev.braid.core.internal.http.OriginHeaders;
import dev.braid.core.internal.io.FileNames;
import dev.braid.core.internal.io.ReorderWindow;
import dev.braid.core.internal.plan.Segment;
import dev.braid.core.internal.plan.SegmentTable;
import dev.braid.core.internal.probe.ProbeResult;
import dev.braid.store.RemoteIdentity;
import java.net.URI;

/**
 * The one pass of a stream, on its driver thread: the probe ({@link ProbeStage}), a fresh table
 * worked in order ({@link SegmentTable#inOrder}), the workers writing into the
 * {@link ReorderWindow} instead of a part file, and the {@link DriveLoop} with nothing to record.
 * No target, no resume, no record: bytes that went out cannot be taken back, so a change of the
 * remote file, a link that moves or ranges refused mid-way end the stream with an error instead
 * of another pass.
 */
final class StreamPass {
  private final DownloadParts parts;
  private final DownloadRequest request;
  private final ReorderWindow window;
  private final PassControl control;
  private volatile SegmentTable table;
  private volatile RemoteIdentity identity;
  private volatile WorkerPool pool;
  /** The request with what its server declared (a digest, piece hashes), once probed; what the reader checks. */
  private volatile AdvertisedExtras.Pass checked;

  StreamPass(DownloadParts parts, DownloadRequest request, ReorderWindow window) {
    this.parts = parts;
    this.request = request;
    this.window = window;
    this.control = new PassControl(() -> false, parts.settings().ticker());
    control.onHalt(() -> {
      WorkerPool p = pool;
      if (p != null) {
        p.abortAll();
      }
    });
  }

  /** Runs the pass to its end and returns the file's length; every byte is then in the window. */
  long run() throws DownloadException {
    OriginHeaders headers = new CurrentLink(request).originHeaders();
    URI uri = request.uri();
    String host = HostConnections.hostOf(uri);
    if (!parts.budget().acquireWaiting(host, control)) {
      throw new DownloadPausedException("the stream was closed before it started");
    }
    ProbeStage.Answer answer;
    try {
      answer = new ProbeStage(request, headers, parts.route(), parts.recorder(), parts.settings(), control,
          parts.deadline(), parts.log()::note).probe(new ResumePlanner.ProbeRange(0, SegmentStreamer.FIRST_REQUEST, 0));
    } catch (DownloadException | RuntimeException e) {
      parts.budget().release(host);
      throw e;
    }
    ProbeResult probe = answer.result();
    URI finalUri = URI.create(probe.identity().finalUrl());
    // what the server declares (a digest, mirrors, a Metalink's pieces) counts as for a file; set
    // before the window starts, so the reader checks the first byte it takes against it
    AdvertisedExtras.Pass advertised = new AdvertisedExtras(parts.route(), headers, parts.recorder(), parts.log()::note)
        .apply(request, probe, answer.otherUrls(), FileNames.choose(probe.contentDisposition(), finalUri));
    checked = advertised;
    identity = probe.identity();
    SegmentTable t = SegmentTable.fresh(identity.length(), identity.ranges(), request.minSplitSize(), parts.settings().ticker());
    t.inOrder(InOrder.WINDOW);
    table = t;
    window.start(identity.length());
    MirrorSet mirrors = MirrorSet.forPass(probe, advertised.mirrors(), parts.route(), headers, parts.recorder(),
        parts.log()::note);
    PassContext context = new PassContext(t, identity, mirrors, parts.route(), headers, parts.recorder(), parts.settings(),
        null, control, parts.log()::note, null);
    long now = parts.settings().ticker().read();
    long startBytes = parts.fetched().sum();
    WorkerPool p = new WorkerPool(context, window, parts.hosts().controllerFor(identity, now, parts.route().forPass(finalUri, false)),
        now, parts.budget(), parts.workers(), parts.throttle(), parts.fetched(), parts.meter(), parts.log());
    pool = p;
    Exchange first = probe.exchange();
    Segment firstSegment = first == null ? null : t.assignAt(probe.offset());
    if (firstSegment != null) {
      t.requestEnd(firstSegment, identity.ranges() ? SegmentStreamer.FIRST_REQUEST - probe.offset() : Long.MAX_VALUE);
    }
    // a redirect to another host: the probe's permit was for the first one
    boolean permitHere = HostConnections.hostOf(identity).equals(host);
    if (!permitHere) {
      parts.budget().release(host);
    }
    p.start(first, firstSegment, permitHere);
    p.topUp();
    new DriveLoop(request, context, p, Checkpoints.NONE, parts.deadline(), parts.fetched(), parts.meter(), parts.hosts())
        .run(finalUri, now, startBytes, false);
    return outcome(t);
  }

  private long outcome(SegmentTable t) throws DownloadException {
    Throwable cause = control.fatal();
    if (cause instanceof RemoteChanged rc) {
      throw new RemoteChangedException(rc.getMessage() + "; the bytes before it went out already", rc);
    }
    if (cause instanceof RangesRefused rr) {
      throw new IntegrityException("the server answered a range with the whole file; a stream cannot start over", rr);
    }
    if (cause instanceof DownloadException de) {
      throw de;
    }
    if (cause != null) {
      throw new IllegalStateException("a worker failed", cause);
    }
    if (!t.complete()) {
      if (control.halted()) {
        throw new DownloadPausedException("the stream was closed at " + t.doneBytes() + " bytes");
      }
      TransientFailure f = control.lastFailure();
      throw f == null ? new NetworkException("the download stopped before the end") : FailurePolicy.publicError(f);
    }
    return t.doneBytes();
  }

  /** Stops every worker (the reader closed the stream, or the engine closes). */
  void halt() {
    control.halt(null);
  }

  SegmentTable table() {
    return table;
  }

  RemoteIdentity identity() {
    return identity;
  }

  /** What the bytes must match: the stream's request with its server's digest and pieces; null before the probe. */
  AdvertisedExtras.Pass checked() {
    return checked;
  }

  int connections() {
    WorkerPool p = pool;
    return p == null ? 0 : p.busy();
  }
}
