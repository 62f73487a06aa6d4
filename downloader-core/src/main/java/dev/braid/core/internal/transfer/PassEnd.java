package dev.braid.core.internal.transfer;

import dev.braid.core.DownloadException;
import dev.braid.core.DownloadPausedException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadResult;
import dev.braid.core.NetworkException;
import dev.braid.core.internal.fetch.RangeSource;
import dev.braid.core.internal.fetch.RemoteChanged;
import dev.braid.core.internal.fetch.TransientFailure;
import dev.braid.core.internal.http.OriginHeaders;
import dev.braid.core.internal.io.PartFile;
import dev.braid.core.internal.plan.SegmentTable;
import dev.braid.store.DownloadState;
import dev.braid.store.RemoteIdentity;
import dev.braid.store.StoreException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The end of a pass, on the driver thread: the other half of its {@link Attempt}, given the
 * download's parts as the attempt is. A pass whose workers are done ends in its failure, or in the
 * end check, the checksum and the rename; a pass that failed records its status and, when nothing
 * was recorded for it, leaves no part file behind.
 */
final class PassEnd {
  private final DownloadParts parts;
  private final DownloadRequest request;
  private final OriginHeaders headers;
  private final DownloadLog log;
  private final PassControl control;
  private final ResumePlanner planner;

  PassEnd(DownloadParts parts, DownloadRequest request, OriginHeaders headers, DownloadLog log, PassControl control,
      ResumePlanner planner) {
    this.parts = parts;
    this.request = request;
    this.headers = headers;
    this.log = log;
    this.control = control;
    this.planner = planner;
  }

  /**
   * Ends a pass: its failure, or the end check ({@code checkAgainst}, null for none), the checksum
   * (the request's, else the server's) and the rename.
   */
  DownloadResult finish(AdvertisedExtras.Pass pass, ResumePlan plan, RemoteIdentity identity, PartCommit commit,
      PartFile part, Path target, RangeSource checkAgainst) throws DownloadException, RemoteChanged, LinkChanged {
    SegmentTable table = plan.table();
    Throwable cause = control.fatal();
    if (cause instanceof RemoteChanged rc) {
      throw rc;
    }
    if (cause instanceof LinkChanged lc) {
      throw lc;
    }
    if (cause instanceof DownloadException de) {
      throw de;
    }
    if (cause != null) {
      throw new IllegalStateException("a worker failed", cause);
    }
    if (!table.complete()) {
      if (control.pauseRequested()) {
        throw new DownloadPausedException("paused at " + table.doneBytes() + " bytes; run again to resume");
      }
      TransientFailure f = control.lastFailure();
      throw f == null ? new NetworkException("the download stopped before the end") : FailurePolicy.publicError(f);
    }
    if (checkAgainst != null) {
      new EndCheck(parts.budget(), parts.route(), headers, parts.recorder(), log)
          .require(request, control, commit, part, checkAgainst);
    }
    pass.verify(commit, identity, log::note);
    commit.commitTo(target, request.overwrite());
    long length = table.doneBytes();
    return new DownloadResult(target, length, parts.fetched().sum(), plan.reused(), log.elapsed(), log.restarts(),
        parts.metrics());
  }

  /**
   * A pass that failed with {@code failure}: its record marked paused or failed; its part file
   * deleted when the pass made it ({@code partExisted} false) and recorded nothing.
   */
  void failed(DownloadException failure, Path partPath, boolean partExisted) {
    recordOutcome(failure instanceof DownloadPausedException ? DownloadState.PAUSED : DownloadState.FAILED,
        failure.getMessage());
    if (!partExisted && planner.recordId() < 0) {
      // refused before anything was recorded (no space, a lock, the store): leave nothing behind
      deleteQuietly(partPath);
    }
  }

  private void recordOutcome(DownloadState status, String message) {
    long id = planner.recordId();
    if (id >= 0) {
      try {
        parts.records().markStatus(id, status, message);
      } catch (StoreException ignored) {
        // the failure being reported matters more; the record stays resumable as ACTIVE
      }
    }
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException ignored) {
      // an empty file left behind is harmless: the next run starts it fresh
    }
  }
}
