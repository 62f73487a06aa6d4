package dev.braid.core.internal.queue;

import dev.braid.core.Checksum;
import dev.braid.core.ConnectionChange;
import dev.braid.core.Download;
import dev.braid.core.DownloadFailure;
import dev.braid.core.DownloadNote;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.OutageRetry;
import dev.braid.core.OutageWait;
import dev.braid.core.Progress;
import dev.braid.core.StoredFailure;
import dev.braid.core.TransferMetrics;
import dev.braid.core.internal.transfer.DownloadJob;
import dev.braid.store.DownloadState;
import dev.braid.store.QueueEntry;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What a download of the queue shows through the public API's {@link Download}: read from its
 * entry as last read, the state users see and the job of its run here. Its one subclass,
 * {@link QueuedDownload}, adds the actions and the rest of the run's state.
 *
 * <p>Threads: any thread reads it (its fields are volatile); the queue's parts set them.
 */
abstract sealed class DownloadReads implements Download permits QueuedDownload {
  private final long id;
  private volatile QueueEntry entry;
  private volatile DownloadState state;
  private volatile DownloadJob job;
  private volatile boolean submittedHere;

  DownloadReads(QueueEntry entry, DownloadState state) {
    this.id = entry.id();
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
  public Optional<String> proxy() {
    return Optional.ofNullable(entry.options().get(DownloadProxy.OPTION));
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

  /** The job of the run that starts. */
  void job(DownloadJob j) {
    this.job = j;
  }

  /** Asked of this Braid: set before the first event the submission sends. */
  void submitted() {
    submittedHere = true;
  }

  void state(DownloadState s) {
    this.state = s;
  }
}
