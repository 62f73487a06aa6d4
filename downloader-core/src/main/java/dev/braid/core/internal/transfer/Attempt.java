package dev.braid.core.internal.transfer;

import dev.braid.core.DownloadException;
import dev.braid.core.DownloadPausedException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadResult;
import dev.braid.core.FailureDetail;
import dev.braid.core.LocalFileException;
import dev.braid.core.internal.fetch.RangeRequest;
import dev.braid.core.internal.fetch.RemoteChanged;
import dev.braid.core.internal.http.Exchange;
import dev.braid.core.internal.http.OriginHeaders;
import dev.braid.core.internal.io.PartFile;
import dev.braid.core.internal.io.PartFileLockedException;
import dev.braid.core.internal.plan.Segment;
import dev.braid.core.internal.plan.SegmentTable;
import dev.braid.core.internal.probe.ProbeResult;
import dev.braid.store.DownloadRecord;
import dev.braid.store.RemoteIdentity;
import dev.braid.store.StoreException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;

/**
 * One pass of a download, on the job's driver thread, in stages: probe ({@link ProbeStage}), name
 * the target ({@link TargetResolver}), resume or start fresh ({@link ResumePlanner}), run the
 * workers on a {@link PassContext}, on connections warmed meanwhile ({@link PassWarmup}), while
 * checkpointing every interval ({@link DriveLoop}), then verify and rename ({@link PassEnd},
 * {@link PartCommit}).
 * A remote file that changes mid-way ends the pass with {@link RemoteChanged}; the job decides
 * whether to start another. Each stage is given the parts of the download it uses, nothing more.
 */
final class Attempt {
  private final DownloadParts parts;
  private final DownloadRequest request;
  /** The user's headers for the request's origin, as they stood when the pass started. */
  private final OriginHeaders headers;
  private final DownloadLog log;
  private final PassControl control;
  private final ResumePlanner planner;
  private final PassEnd end;

  private volatile SegmentTable table;
  private volatile RemoteIdentity identity;
  private volatile WorkerPool pool;
  private volatile Path target;
  private ResumePlan plan;
  private final PassWarmup warmup;
  private long probeNanos;
  /** Whether bytes of an earlier run are on record: a link that refuses now served this file before. */
  private volatile boolean resuming;
  /** The host whose connection permit the probe holds, until the first worker takes it or it is given back; driver thread only. */
  private String probePermit;

  /**
   * @param request the request as it stands when the pass starts (a moved link halts the pass)
   * @param pauseRequested whether the user asked the download to pause
   */
  Attempt(DownloadParts parts, DownloadRequest request, OriginHeaders headers, BooleanSupplier pauseRequested) {
    this.parts = parts;
    this.request = request;
    this.headers = headers;
    this.log = parts.log();
    this.control = new PassControl(pauseRequested, parts.settings().ticker());
    this.planner = new ResumePlanner(request, headers, parts.records(), parts.storeLocation(), parts.route(),
        parts.recorder(), log, parts.settings().ticker());
    this.warmup = new PassWarmup(request, parts.hosts(), control);
    this.end = new PassEnd(parts, request, headers, log, control, planner);
    control.onHalt(warmup::cancel);
    control.onHalt(() -> {
      WorkerPool p = pool;
      if (p != null) {
        p.abortAll();
      }
    });
  }

  DownloadResult run() throws DownloadException, RemoteChanged, LinkChanged {
    Optional<DownloadRecord> prior = planner.priorRecord();
    resuming = prior.isPresent() && parts.records().segments(prior.get().id()).stream().anyMatch(s -> s.done() > 0);
    parts.route().beforeProbe(request.uri());
    ResumePlanner.ProbeRange range = planner.probeRange(prior);
    // the probe is a request on a connection of its own: under the per-host cap (a fleet's too)
    String probeHost = HostConnections.hostOf(request.uri());
    if (!parts.budget().acquireWaiting(probeHost, control)) {
      throw new DownloadPausedException("paused before the download started");
    }
    probePermit = probeHost;
    // started before the probe, so connections open while it waits for its answer; ended with the pass
    warmup.beforeProbe(planner.remaining(prior), range.to() - range.from());
    long probeStart = parts.settings().ticker().read();
    ProbeStage.Answer answer;
    try {
      answer = new ProbeStage(request, headers, parts.route(), parts.recorder(), parts.settings(), control,
          parts.deadline(), log::note).probe(range);
    } catch (DownloadException | RuntimeException e) {
      warmup.cancelProbe();
      releaseProbePermit();
      throw e;
    }
    probeNanos = parts.settings().ticker().read() - probeStart;
    ProbeResult probe = answer.result();
    List<URI> otherUrls = answer.otherUrls();
    Exchange first = probe.exchange();
    Path partPath = null;
    boolean partExisted = true;
    try {
      identity = probe.identity();
      URI finalUri = URI.create(identity.finalUrl());
      Path target = TargetResolver.resolve(request, prior, probe, finalUri);
      this.target = target;
      partPath = target.resolveSibling(target.getFileName() + ".part");
      Optional<DownloadRecord> record = parts.records().findByTarget(target);
      if (Files.exists(target) && !request.overwrite()) {
        OptionalLong kept = planner.renamedBeforeCrash(record, target, partPath, identity);
        if (kept.isPresent()) {
          long length = kept.getAsLong();
          return new DownloadResult(target, length, 0, length, log.elapsed(), log.restarts(), parts.metrics());
        }
        throw new LocalFileException(target + " already exists (use --overwrite to replace it)", null,
            FailureDetail.FILE_EXISTS);
      }
      AdvertisedExtras.Pass pass = new AdvertisedExtras(parts.route(), headers, parts.recorder(), log::note)
          .apply(request, probe, otherUrls, target.getFileName().toString());
      DownloadRequest passRequest = pass.request();
      partExisted = Files.exists(partPath);
      try (PartFile part = openPart(partPath)) {
        HeldBytes.ProbeSample sample = new HeldBytes.ProbeSample(first, probe.offset(),
            probe.offset() == range.from() ? range.held() : 0);
        plan = planner.plan(record, part, partExisted, target, probe.source(), sample);
        if (!sample.usable()) {
          first = null;
        }
        table = plan.table();
        if (request.sequential()) {
          table.inOrder(InOrder.WINDOW);
        }
        boolean measurable = identity.ranges() && identity.length() - plan.reused() >= ProtocolPolicy.MEASURE_MIN
            && request.mirrors().isEmpty() && pass.mirrors().isEmpty() && !parts.throttle().limited();
        String protocolWhy = parts.route().forPass(finalUri, measurable);
        if (measurable && first != null && first.protocol() != parts.route().protocolFor(finalUri)) {
          // a trial of the other version: the probe's response would blur what the trial measures
          first.abort();
          first = null;
        }
        MirrorSet mirrors = MirrorSet.forPass(probe, pass.mirrors(), parts.route(), headers, parts.recorder(), log::note);
        Provenance provenance = passRequest.pieceHashes().isPresent() && identity.ranges() ? new Provenance() : null;
        PassContext context = new PassContext(table, identity, mirrors, parts.route(), headers, parts.recorder(),
            parts.settings(), plan.sums(), control, log::note, provenance);
        PartCommit commit = new PartCommit(parts.records(), part, plan,
            PieceGuard.of(passRequest, identity, table, mirrors, provenance, control, log::note));
        boolean endCheck = drive(passRequest, context, part, commit, first, sample.bodyOffset(), range.to(), protocolWhy,
            measurable);
        first = null;
        return end.finish(pass, plan, identity, commit, part, target, endCheck ? probe.source() : null);
      } catch (IOException e) {
        throw new LocalFileException("cannot use " + partPath + ": " + RangeRequest.describe(e), e);
      }
    } catch (DownloadException | StoreException e) {
      DownloadException failure = e instanceof StoreException se
          ? new LocalFileException(se.getMessage(), se) : (DownloadException) e;
      end.failed(failure, partPath, partExisted);
      throw failure;
    } finally {
      warmup.cancel();
      if (first != null) {
        first.abort();
      }
      releaseProbePermit();
    }
  }

  private void releaseProbePermit() {
    if (probePermit != null) {
      parts.budget().release(probePermit);
      probePermit = null;
    }
  }

  private static PartFile openPart(Path partPath) throws LocalFileException {
    try {
      return PartFile.open(partPath);
    } catch (PartFileLockedException e) {
      throw new LocalFileException(e.getMessage() + " (another braid is running it)", e, FailureDetail.IN_USE);
    } catch (IOException e) {
      throw new LocalFileException("cannot open " + partPath + ": " + RangeRequest.describe(e), e);
    }
  }

  /**
   * Starts the workers and runs them until none is left ({@link DriveLoop}), sampling speed,
   * steering the connection count and checkpointing on the way. The first worker streams the probe's body when the plan still
   * needs the bytes at its offset; otherwise the probe's exchange is aborted. Either way the
   * caller no longer owns it. A {@code measurable} pass that completes reports its throughput
   * to the download's {@link ProtocolRoute}.
   */
  private boolean drive(DownloadRequest passRequest, PassContext context, PartFile part, PartCommit commit, Exchange first,
      long firstOffset, long probeEnd, String protocolWhy, boolean measurable) throws LocalFileException {
    long now = parts.settings().ticker().read();
    long start = now;
    long startBytes = parts.fetched().sum();
    URI finalUri = URI.create(identity.finalUrl());
    pool = new WorkerPool(context, part, parts.hosts().controllerFor(identity, now, protocolWhy), now, parts.budget(),
        parts.workers(), parts.throttle(), parts.fetched(), parts.meter(), log);
    if (control.halted()) {
      // a halt before the pool was set did not abort it
      pool.abortAll();
    }
    Segment firstSegment = first == null ? null : table.assignAt(firstOffset);
    if (firstSegment != null) {
      // the probe is the first segment's first request: a server without ranges sends everything
      table.requestEnd(firstSegment, identity.ranges() ? probeEnd - firstOffset : Long.MAX_VALUE);
    }
    // a redirect to another host: the probe's permit was for the first one
    boolean permitHere = HostConnections.hostOf(identity).equals(probePermit);
    if (!permitHere) {
      releaseProbePermit();
    }
    probePermit = null;
    pool.start(first, firstSegment, permitHere);
    long probeTakes = firstSegment == null ? 0 : identity.ranges() ? probeEnd - firstOffset : Long.MAX_VALUE;
    warmup.awaitBeforeWorkers(pool, table, finalUri, probeTakes, probeNanos, identity.length() - plan.reused());
    pool.topUp();
    return new DriveLoop(passRequest, context, pool, commit, parts.deadline(), parts.fetched(), parts.meter(), parts.hosts())
        .run(finalUri, start, startBytes, measurable);
  }

  // ---- what the job sees

  SegmentTable table() {
    return table;
  }

  RemoteIdentity identity() {
    return identity;
  }

  /** Whether this pass continues bytes an earlier run left on disk. */
  boolean resuming() {
    return resuming;
  }

  /** The final file, once chosen. */
  Path target() {
    return target;
  }

  /** Connections streaming right now. */
  int connections() {
    WorkerPool p = pool;
    return p == null ? 0 : p.busy();
  }

  /** Stops every worker: aborts their exchanges and wakes those waiting to retry. */
  void halt(Throwable cause) {
    control.halt(cause);
  }
}
