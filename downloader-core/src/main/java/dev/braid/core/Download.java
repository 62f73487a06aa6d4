package dev.braid.core;

import dev.braid.core.schedule.DownloadJob;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A running download, returned by {@link Braid#start}. Thread-safe: any thread may read its
 * progress or pause it.
 */
public final class Download {
  private final DownloadRequest request;
  private final DownloadJob job;

  Download(DownloadRequest request, DownloadJob job) {
    this.request = request;
    this.job = job;
  }

  public DownloadRequest request() {
    return request;
  }

  /**
   * Completes with the result once the file is complete, durable and renamed, or exceptionally
   * with a {@link DownloadException} subclass saying why not. It completes only after every
   * connection of the download has stopped and its progress is recorded.
   */
  public CompletableFuture<DownloadResult> result() {
    return job.result();
  }

  /** A snapshot of how far the download is. */
  public Progress progress() {
    return job.progress();
  }

  /** How the connection count changed so far and why (ramp, plateau, server limit, slow connection replaced). */
  public List<ConnectionChange> connectionChanges() {
    return job.connectionChanges();
  }

  /** Why the download last started over from zero (the remote file changed), if it did. */
  public Optional<String> restartReason() {
    return Optional.ofNullable(job.lastRestartReason());
  }

  /**
   * Stops the download and records its progress; {@link #result()} then completes with a
   * {@link DownloadPausedException}. Starting the same request again resumes it.
   */
  public void pause() {
    job.pause();
  }
}
