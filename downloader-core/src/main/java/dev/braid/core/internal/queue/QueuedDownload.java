package dev.braid.core.internal.queue;

import dev.braid.core.Checksum;
import dev.braid.core.ConnectionChange;
import dev.braid.core.Download;
import dev.braid.core.DownloadFailure;
import dev.braid.core.DownloadListener;
import dev.braid.core.DownloadNote;
import dev.braid.core.DownloadResult;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.OutageRetry;
import dev.braid.core.OutageWait;
import dev.braid.core.Progress;
import dev.braid.core.ProxyUrl;
import dev.braid.core.Registration;
import dev.braid.core.RemoteFile;
import dev.braid.core.StoredFailure;
import dev.braid.core.TransferMetrics;
import dev.braid.core.internal.transfer.DownloadJob;
import dev.braid.store.DownloadState;
import dev.braid.store.QueueEntry;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A download of the queue as this process knows it: the {@link Download} the public API hands
 * out, and the state of its run, which only this package changes: the entry as last read, the
 * state users see, the running job and the result of the current run. Made by the
 * {@link HandleMap} alone, so that one id has one object while anyone holds it.
 *
 * <p>Threads: any thread reads it (its fields are volatile); the queue's parts change it under
 * {@link #lifecycle} where a start and a pause must not cross.
 */
final class QueuedDownload implements Download {
  private final long id;
  private final DownloadQueue queue;
  private volatile QueueEntry entry;
  private volatile DownloadState state;
  private volatile DownloadJob job;
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
  private volatile boolean submittedHere;

  QueuedDownload(DownloadQueue queue, QueueEntry entry, DownloadState state) {
    this.id = entry.id();
    this.queue = queue;
    this.entry = entry;
    this.state = state;
  }

  @Override
  public long id() {
    return id;
  }

  @Override
  public String url() {
    return entry.url();
  }

  @Override
  public String name() {
    Optional<Path> f = file();
    return f.map(p -> p.getFileName().toString()).orElseGet(() -> RequestCodec.displayName(entry));
  }

  @Override
  public Optional<Path> file() {
    DownloadJob j = job;
    Optional<Path> running = j == null ? Optional.empty() : j.target();
    return running.or(() -> Optional.ofNullable(entry.target() != null ? entry.target() : entry.file()));
  }

  @Override
  public Path directory() {
    return entry.directory();
  }

  @Override
  public DownloadState state() {
    return state;
  }

  @Override
  public List<String> mirrors() {
    List<String> urls = entry.urls();
    return urls.subList(1, urls.size());
  }

  @Override
  public Optional<Checksum> checksum() {
    String spec = entry.options().get("checksum");
    try {
      return spec == null ? Optional.empty() : Optional.of(Checksum.parse(spec));
    } catch (InvalidRequestException e) {
      // stored by a Braid that accepted it; an unreadable one is shown as none rather than failing a display
      return Optional.empty();
    }
  }

  @Override
  public int priority() {
    return entry.priority();
  }

  @Override
  public Optional<String> error() {
    return state == DownloadState.FAILED ? Optional.ofNullable(entry.error()) : Optional.empty();
  }

  @Override
  public Optional<DownloadFailure> failure() {
    return state == DownloadState.FAILED ? Optional.of(StoredFailure.decode(entry.errorKind())) : Optional.empty();
  }

  @Override
  public Optional<OutageRetry> outageRetry() {
    return Optional.ofNullable(RequestCodec.outageRetry(entry));
  }

  @Override
  public void outageRetry(OutageRetry policy) {
    Objects.requireNonNull(policy, "policy");
    StateCalls.run(() -> queue.settings().outageRetry(this, policy));
  }

  @Override
  public Optional<OutageWait> outageWait() {
    QueueEntry e = entry;
    if (state != DownloadState.QUEUED || !e.retry().waiting()) {
      return Optional.empty();
    }
    return Optional.of(new OutageWait(Instant.ofEpochMilli(e.retry().atMillis()), e.retry().failures(),
        Instant.ofEpochMilli(e.retry().sinceMillis()), e.error() == null ? "" : e.error(), StoredFailure.decode(e.errorKind())));
  }

  @Override
  public boolean submittedHere() {
    return submittedHere;
  }

  @Override
  public Progress progress() {
    DownloadJob j = job;
    return orRecorded(j == null ? null : j.progress(), entry);
  }

  /**
   * A run's {@code live} progress, or what {@code recorded} holds while the run has counted
   * nothing: until its pass knows the file (the probe is out, or failed: a 403 after a restart),
   * the bytes recorded before, which stay on disk for the resume, are what it holds.
   */
  static Progress orRecorded(Progress live, QueueEntry recorded) {
    return live != null && (live.length() >= 0 || live.done() > 0) ? live
        : Progress.idle(recorded.length(), recorded.done());
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
    if (state == DownloadState.COMPLETED) {
      throw new IllegalStateException("#" + id + " is complete; there is nothing left to fetch");
    }
    queue.settings().changeUrl(this, uri);
  }

  @Override
  public void headers(Map<String, String> headers) throws InvalidRequestException {
    if (state == DownloadState.COMPLETED) {
      throw new IllegalStateException("#" + id + " is complete; there is nothing left to fetch");
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
  public Optional<String> proxy() {
    return Optional.ofNullable(entry.options().get(DownloadProxy.OPTION));
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
    DownloadJob j = job;
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
  public List<ConnectionChange> connectionChanges() {
    DownloadJob j = job;
    return j == null ? List.of() : j.connectionChanges();
  }

  @Override
  public List<DownloadNote> notes() {
    DownloadJob j = job;
    return j == null ? List.of() : j.notes();
  }

  @Override
  public TransferMetrics metrics() {
    DownloadJob j = job;
    return j == null ? TransferMetrics.NONE : j.metrics();
  }

  @Override
  public Optional<String> restartReason() {
    DownloadJob j = job;
    return j == null ? Optional.empty() : Optional.ofNullable(j.lastRestartReason());
  }

  @Override
  public Registration listen(DownloadListener listener, Duration progressEvery) {
    return queue.listen(this, listener, progressEvery);
  }

  @Override
  public String toString() {
    return "#" + id + " " + name() + " (" + state + ")";
  }

  // ---- kept by the queue

  QueueEntry entry() {
    return entry;
  }

  void entry(QueueEntry e) {
    this.entry = e;
  }

  /** The job of the current (or last) run here; null before the first. */
  DownloadJob job() {
    return job;
  }

  /** Asked of this Braid: set before the first event the submission sends. */
  void submitted() {
    submittedHere = true;
  }

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
    this.job = j;
  }

  void state(DownloadState s) {
    this.state = s;
  }

  /** Stops the run here: as a pause someone asked for, or, with {@code removal}, as its removal. */
  void stopRun(boolean removal) {
    if (removal) {
      removing = true;
    } else {
      pauseAsked = true;
    }
    job.pause();
  }
}
