package dev.braid.core.internal.queue;

import dev.braid.core.DownloadListener;
import dev.braid.core.DownloadResult;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.OutageRetry;
import dev.braid.core.Progress;
import dev.braid.core.ProxyUrl;
import dev.braid.core.Registration;
import dev.braid.core.RemoteFile;
import dev.braid.core.internal.transfer.DownloadJob;
import dev.braid.store.DownloadState;
import dev.braid.store.QueueEntry;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A download of the queue as this process knows it: the {@link dev.braid.core.Download} the
 * public API hands out, whose reads are its {@link DownloadReads}'s and whose actions go to its
 * queue, and the state of its run, which only this package changes: the result of the current run
 * and what was asked of it. Made by the {@link HandleMap} alone, so that one id has one object
 * while anyone holds it.
 *
 * <p>Threads: any thread reads it (its fields are volatile); the queue's parts change it under
 * {@link #lifecycle} where a start and a pause must not cross.
 */
final class QueuedDownload extends DownloadReads {
  private final DownloadQueue queue;
  private volatile CompletableFuture<DownloadResult> result = new CompletableFuture<>();
  /** Held by the queue while it starts or pauses this download, so that one never misses the other. */
  final Object lifecycle = new Object();
  /** Set when this run's stop was asked for by a user (pause) rather than by closing Braid. */
  volatile boolean pauseAsked;
  /** Set when a resume was asked while the run here stopped after a pause: it runs again once stopped. */
  volatile boolean resumeAsked;
  /** Set while a run's end, out of running here, completes its result: a resume then is one asked of the run. */
  volatile boolean ending;
  /** Whether the run whose end is {@link #ending} may run again on a resume: it ended paused or failed, not removed. */
  volatile boolean endsResumable;
  /** Set when the queue's schedule stopped this run outside its windows: it ends queued, not paused. */
  volatile boolean held;
  /** Set when the entry is being removed; its run's end is not recorded. */
  volatile boolean removing;

  QueuedDownload(DownloadQueue queue, QueueEntry entry, DownloadState state) {
    super(entry, state);
    this.queue = queue;
  }

  @Override
  public void outageRetry(OutageRetry policy) {
    Objects.requireNonNull(policy, "policy");
    StateCalls.run(() -> queue.settings().outageRetry(this, policy));
  }

  @Override
  public CompletableFuture<DownloadResult> result() {
    return result;
  }

  @Override
  public void pause() {
    StateCalls.run(() -> queue.pause(this));
  }

  @Override
  public void resume() {
    StateCalls.run(() -> queue.resume(this));
  }

  @Override
  public void cancel() {
    StateCalls.run(() -> queue.remove(this, false, true));
  }

  @Override
  public void remove(boolean deleteFile) {
    StateCalls.run(() -> queue.remove(this, deleteFile, deleteFile));
  }

  @Override
  public void changeUrl(URI uri) throws InvalidRequestException {
    if (state() == DownloadState.COMPLETED) {
      throw new IllegalStateException("#" + id() + " is complete; there is nothing left to fetch");
    }
    queue.settings().changeUrl(this, uri);
  }

  @Override
  public void headers(Map<String, String> headers) throws InvalidRequestException {
    if (state() == DownloadState.COMPLETED) {
      throw new IllegalStateException("#" + id() + " is complete; there is nothing left to fetch");
    }
    Map<String, String> copy = Map.copyOf(headers);
    StateCalls.checked(() -> queue.settings().headers(this, copy));
  }

  @Override
  public void rateLimit(long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("a rate limit cannot be negative");
    }
    queue.settings().rateLimit(this, bytesPerSecond);
  }

  @Override
  public void proxy(String url) {
    String checked = ProxyUrl.checkSetting(url);
    StateCalls.run(() -> queue.settings().proxy(this, checked));
  }

  @Override
  public void mirrors(List<String> mirrors) throws InvalidRequestException {
    List<String> copy = List.copyOf(mirrors);
    StateCalls.checked(() -> queue.settings().mirrors(this, copy));
  }

  @Override
  public void priority(int priority) {
    StateCalls.run(() -> queue.settings().priority(this, priority));
  }

  @Override
  public Optional<RemoteFile> remote() {
    DownloadJob j = job();
    if (j != null && j.remote().isPresent()) {
      var r = j.remote().get();
      return Optional.of(new RemoteFile(r.finalUrl(), r.length(), r.etag(), r.lastModified(), r.ranges()));
    }
    return queue.storedRemote(this);
  }

  @Override
  public List<Progress.Segment> recordedSegments() {
    return queue.storedSegments(this);
  }

  @Override
  public Registration listen(DownloadListener listener, Duration progressEvery) {
    return queue.listen(this, listener, progressEvery);
  }

  // ---- kept by the queue

  /** Queued (again): a new future for the coming run unless the last one is still open. */
  void queued() {
    if (result.isDone()) {
      result = new CompletableFuture<>();
    }
  }

  /**
   * A new future for the run a resume asked during a run's end will start: the end completes the
   * future it read before, so a caller that resumes and then waits waits for the coming run.
   */
  void renewResult() {
    result = new CompletableFuture<>();
  }

  /** A run starts. */
  void started(DownloadJob j) {
    queued();
    pauseAsked = false;
    resumeAsked = false;
    held = false;
    job(j);
  }

  /** Stops the run here: as a pause someone asked for, or, with {@code removal}, as its removal. */
  void stopRun(boolean removal) {
    if (removal) {
      removing = true;
    } else {
      pauseAsked = true;
    }
    job().pause();
  }
}
