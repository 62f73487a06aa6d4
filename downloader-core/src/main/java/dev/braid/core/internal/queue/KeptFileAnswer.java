package dev.braid.core.internal.queue;

import dev.braid.core.Checksum;
import dev.braid.core.DownloadException;
import dev.braid.core.DownloadPausedException;
import dev.braid.core.DownloadResult;
import dev.braid.core.FailureDetail;
import dev.braid.core.FailureKind;
import dev.braid.core.IntegrityException;
import dev.braid.core.LocalFileException;
import dev.braid.core.StoredFailure;
import dev.braid.core.internal.fetch.RangeRequest;
import dev.braid.store.DownloadState;
import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * Answers a request that a completed download's file, still whole on disk, already satisfies:
 * at once, or, when the request names a checksum, once the file is shown to have it. A file that
 * does not (changed since, or never what the checksum describes) is kept as it is and its entry
 * fails with an {@link IntegrityException}, so every view of the queue tells the same; asked for
 * again, with the checksum it has (a mistyped one corrected) or none, it completes once more.
 *
 * <p>Threads: the digest reads the whole file, so it runs on a driver thread (a daemon's RPC
 * thread submits, and must not wait on a disk). Braid's close waits for the drivers, and a check
 * in flight stops at its next read of 1 MiB ({@link #close}): its handle ends paused and the
 * entry stays as it was, so that a close does not wait for the digest of a large file.
 */
final class KeptFileAnswer {
  private final QueueStore table;
  private final QueueMoves moves;
  private final Executor drivers;
  /** Set once by {@link #close}, read by each check in flight before its next read. */
  private volatile boolean closing;

  KeptFileAnswer(QueueStore table, QueueMoves moves, Executor drivers) {
    this.table = table;
    this.moves = moves;
    this.drivers = drivers;
  }

  /**
   * Whether {@code e}'s file on disk, when whole, answers a request again: it completed, or failed
   * only its check here (an integrity failure: a download that fails its checksum keeps its bytes
   * in its part file, so a file at the target of such an entry is one written before).
   */
  static boolean answersFor(QueueEntry e) {
    return e.state() == DownloadState.COMPLETED
        || (e.state() == DownloadState.FAILED && e.target() != null
            && StoredFailure.decode(e.errorKind()).kind() == FailureKind.INTEGRITY);
  }

  /** Ends {@code h}, whose entry completed with {@code kept} as its file, as {@code expected} allows. */
  void answer(QueuedDownload h, DownloadResult kept, Optional<Checksum> expected) {
    h.submitted();
    h.queued();
    if (expected.isEmpty()) {
      complete(h, kept);
    } else {
      drivers.execute(() -> check(h, kept, expected.get()));
    }
  }

  /** Stops the checks in flight; called when the queue closes. */
  void close() {
    closing = true;
  }

  private void check(QueuedDownload h, DownloadResult kept, Checksum expected) {
    String actual;
    try {
      Optional<String> digest = Checksum.of(kept.file(), expected.algorithm(), () -> closing).map(Checksum::hex);
      if (digest.isEmpty()) {
        h.result().completeExceptionally(new DownloadPausedException("braid stopped before " + kept.file()
            + " was checked against its checksum; asking for it again checks it"));
        return;
      }
      actual = digest.get();
    } catch (IOException e) {
      fail(h, new LocalFileException("cannot read " + kept.file() + " to verify it: " + RangeRequest.describe(e), e));
      return;
    }
    if (actual.equals(expected.hex())) {
      complete(h, kept);
    } else {
      fail(h, new IntegrityException(kept.file() + ", completed as download #" + h.id() + ", does not have the "
          + expected.algorithm() + " checksum asked for: expected " + expected.hex() + ", got " + actual
          + "; the file is kept as it is (--overwrite downloads it again)", null, FailureDetail.CHECKSUM));
    }
  }

  private void complete(QueuedDownload h, DownloadResult kept) {
    if (h.entry().state() == DownloadState.FAILED) {
      table.setState(h.id(), DownloadState.COMPLETED, null, null);
      table.get(h.id()).ifPresent(h::entry);
    }
    // said, as any other end is: a listener reporting the downloads asked for (--json) hears of it
    moves.transition(h, DownloadState.COMPLETED);
    h.result().complete(kept);
  }

  private void fail(QueuedDownload h, DownloadException e) {
    table.setState(h.id(), DownloadState.FAILED, e.getMessage(), StoredFailure.encode(e));
    table.get(h.id()).ifPresent(h::entry);
    moves.transition(h, DownloadState.FAILED);
    h.result().completeExceptionally(e);
  }
}
