package dev.braid.core;

import dev.braid.core.internal.transfer.DownloadJob;
import dev.braid.store.DownloadState;
import dev.braid.store.QueueEntry;
import dev.braid.store.StoreException;
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
 * A download in the queue, returned by {@link Braid#submit} and {@link Braid#downloads()}.
 * Thread-safe: any thread may read it or act on it. It may be driven by this {@code Braid}, or
 * by another process sharing the state database, in which case its state and progress are what
 * that process last recorded (about once a second) and the actions go through the database.
 *
 * <p>{@link #pause}, {@link #resume}, {@link #cancel} and {@link #remove} record their change in
 * the state database and throw {@link StateStoreException} when it cannot be written.
 */
public final class Download {
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
  /** Set when the queue's schedule stopped this run outside its windows: it ends queued, not paused. */
  volatile boolean held;
  /** Set when the entry is being removed; its run's end is not recorded. */
  volatile boolean removing;
  private volatile boolean submittedHere;

  Download(DownloadQueue queue, QueueEntry entry, DownloadState state) {
    this.id = entry.id();
    this.queue = queue;
    this.entry = entry;
    this.state = state;
  }

  /** {@return the queue's id of this download: stable, shown by {@code braid list}} */
  public long id() {
    return id;
  }

  /** {@return the URL it was submitted with} */
  public String url() {
    return entry.url();
  }

  /** {@return a name to show: the final file's, once known, else the URL's last path part} */
  public String name() {
    Optional<Path> f = file();
    return f.map(p -> p.getFileName().toString()).orElseGet(() -> RequestCodec.displayName(entry));
  }

  /** {@return the final file, once the server's answer fixed it (or the one the request named)} */
  public Optional<Path> file() {
    DownloadJob j = job;
    Optional<Path> running = j == null ? Optional.empty() : j.target();
    return running.or(() -> Optional.ofNullable(entry.target() != null ? entry.target() : entry.file()));
  }

  /**
   * {@return the folder it was submitted to write into (the file's folder unless the request named
   * a file elsewhere)}
   */
  public Path directory() {
    return entry.directory();
  }

  /** {@return where it stands now} */
  public DownloadState state() {
    return state;
  }

  /** {@return other URLs of the same file it was submitted with (mirrors)} */
  public List<String> mirrors() {
    List<String> urls = entry.urls();
    return urls.subList(1, urls.size());
  }

  /** {@return the digest the file must have, if one was given (also for downloads another process submitted)} */
  public Optional<Checksum> checksum() {
    String spec = entry.options().get("checksum");
    try {
      return spec == null ? Optional.empty() : Optional.of(Checksum.parse(spec));
    } catch (InvalidRequestException e) {
      // stored by a Braid that accepted it; an unreadable one is shown as none rather than failing a display
      return Optional.empty();
    }
  }

  /** {@return its priority in the queue: higher starts first} */
  public int priority() {
    return entry.priority();
  }

  /** {@return why it failed, while {@link #state()} is {@link DownloadState#FAILED}} */
  public Optional<String> error() {
    return state == DownloadState.FAILED ? Optional.ofNullable(entry.error()) : Optional.empty();
  }

  /**
   * {@return why it failed, while {@link #state()} is {@link DownloadState#FAILED}: the kind and
   * detail the state database keeps, so the same whether this engine saw the failure or read it
   * from the database (after a restart, or another process's run)} {@link FailureKind#INTERNAL}
   * for a failure recorded without a kind.
   */
  public Optional<DownloadFailure> failure() {
    return state == DownloadState.FAILED ? Optional.of(StoredFailure.decode(entry.errorKind())) : Optional.empty();
  }

  /** {@return its own policy for waiting out outages; empty when the {@code Braid}'s applies} */
  public Optional<OutageRetry> outageRetry() {
    return Optional.ofNullable(RequestCodec.outageRetry(entry));
  }

  /**
   * Its own policy for waiting out outages from now on (see {@link OutageRetry}), kept in the
   * queue; a running download's run ends by it too.
   *
   * @param policy the policy
   */
  public void outageRetry(OutageRetry policy) {
    Objects.requireNonNull(policy, "policy");
    StateCalls.run(() -> queue.outageRetry(this, policy));
  }

  /**
   * {@return when and why it waits out an outage, while it is {@link DownloadState#QUEUED} after a
   * run that failed for a passing reason (see {@link OutageRetry})} Empty otherwise, and once a
   * person paused, resumed or removed it.
   */
  public Optional<OutageWait> outageWait() {
    QueueEntry e = entry;
    if (state != DownloadState.QUEUED || !e.retry().waiting()) {
      return Optional.empty();
    }
    return Optional.of(new OutageWait(Instant.ofEpochMilli(e.retry().atMillis()), e.retry().failures(),
        Instant.ofEpochMilli(e.retry().sinceMillis()), e.error() == null ? "" : e.error(), StoredFailure.decode(e.errorKind())));
  }

  /**
   * {@return whether it was asked of this Braid ({@link Braid#submit}), rather than found in the
   * state database: another process's, or an earlier run's that nobody asked for again} A listener
   * that reports one job's downloads (a command line's {@code --json}) keeps to these.
   */
  public boolean submittedHere() {
    return submittedHere;
  }

  /**
   * {@return how far it is} Live while this process drives it; otherwise as last recorded. A run
   * that has not learned the file yet (its first request is out, or failed) shows the bytes
   * recorded before it, which it keeps for the resume.
   */
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

  /**
   * {@return the outcome of the current (or last) run: the result once the file is complete,
   * durable and renamed; or a {@link DownloadException} saying why not
   * ({@link DownloadPausedException} for a pause)} A {@link #resume()} after that starts a new run
   * with a new future. It completes only after every connection of the run has stopped and its
   * progress is recorded. For a download another process drives, it completes only once this
   * {@code Braid} runs it: follow such a download with {@link #state()} or a listener. A run that
   * ends waiting out an outage ({@link #outageWait()}) leaves it open for the next run.
   */
  public CompletableFuture<DownloadResult> result() {
    return result;
  }

  /**
   * Stops the download and records its progress; {@link #result()} then completes with a
   * {@link DownloadPausedException}. A queued download stays where it is until resumed.
   */
  public void pause() {
    StateCalls.run(() -> queue.pause(this));
  }

  /** Queues a paused or failed download again; it continues from the bytes on disk. */
  public void resume() {
    StateCalls.run(() -> queue.resume(this));
  }

  /** Stops the download and removes it from the queue along with its partial file (a completed file stays). */
  public void cancel() {
    StateCalls.run(() -> queue.remove(this, false, true));
  }

  /**
   * Stops the download and removes it from the queue. With {@code deleteFile}, its file goes too
   * (partial or complete); without, a partial file and its resume record stay, so submitting the
   * same URL again continues it.
   *
   * @param deleteFile whether its file goes too, partial or complete
   */
  public void remove(boolean deleteFile) {
    StateCalls.run(() -> queue.remove(this, deleteFile, deleteFile));
  }

  /**
   * Gives this download a new URL for the same file, such as a new signed link after the old one
   * expired. A running download stops its connections (their bytes are recorded) and continues
   * from {@code uri}; a paused, queued or failed one, or one another process drives, uses it when
   * it runs next here (call {@link #resume()}); one that never started simply takes it. The bytes on disk are reused only when {@code uri} proves to serve the same
   * file: the same length and strong validator, or, where its validators differ, a sample of the
   * finished blocks fetched from it matching the checksums recorded for them. Otherwise the run
   * fails with {@link LinkRefusedException} and nothing is spliced; starting over is then a new
   * request with overwrite, or {@link #remove} first.
   *
   * @param uri the new http or https URL of the same file
   * @throws InvalidRequestException when {@code uri} is not an http or https URL
   * @throws IllegalStateException when the download is complete
   */
  public void changeUrl(URI uri) throws InvalidRequestException {
    if (state == DownloadState.COMPLETED) {
      throw new IllegalStateException("#" + id + " is complete; there is nothing left to fetch");
    }
    queue.changeUrl(this, uri);
  }

  /**
   * Replaces the headers this download sends to its URL's origin (cookies, authorization, a
   * referer, an API key: as {@link DownloadRequestBuilder#header} gives them; empty for none), such
   * as a fresh cookie from the browser after the old one expired. The state database keeps them,
   * beside the entry and never shown with it, so that the download resumes with them after a
   * restart, in any process of a fleet; they are dropped once it completes. A running download
   * stops its connections (their bytes are recorded) and continues with the new headers at once; a
   * paused, queued or failed one, or one another process drives, uses them when it runs next
   * (call {@link #resume()} for a paused or failed one).
   *
   * @param headers the new headers, by name; each name a token and each value without a line break
   * @throws InvalidRequestException when a name or value is not valid (the message names the
   *     header, never its value)
   * @throws IllegalStateException when the download is complete
   */
  public void headers(Map<String, String> headers) throws InvalidRequestException {
    if (state == DownloadState.COMPLETED) {
      throw new IllegalStateException("#" + id + " is complete; there is nothing left to fetch");
    }
    try {
      queue.headers(this, Map.copyOf(headers));
    } catch (StoreException e) {
      throw new StateStoreException(e.getMessage(), e);
    }
  }

  /**
   * Changes this download's own rate limit (bytes per second, 0 for none), also while it runs.
   *
   * @param bytesPerSecond the new limit; 0 for none
   */
  public void rateLimit(long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("a rate limit cannot be negative");
    }
    queue.rateLimit(this, bytesPerSecond);
  }

  /**
   * {@return its own proxy as the queue holds it: the URL without credentials, or
   * {@link DownloadRequest#DIRECT}; empty when the engine's proxy applies} Read from the queue's
   * entry, so a download another process submitted shows its own too.
   */
  public Optional<String> proxy() {
    return Optional.ofNullable(entry.options().get(DownloadProxy.OPTION));
  }

  /**
   * Gives a download that is not running a proxy of its own (see {@link DownloadRequestBuilder#proxy}:
   * a URL, {@link DownloadRequest#DIRECT}, or null for the engine's); its next run uses it.
   *
   * @param url a proxy URL, {@link DownloadRequest#DIRECT}, or null for the engine's
   * @throws IllegalArgumentException for a URL that names no usable proxy
   * @throws IllegalStateException when it is running (pause it first)
   */
  public void proxy(String url) {
    String checked = DownloadProxy.check(url);
    StateCalls.run(() -> queue.proxy(this, checked));
  }

  /**
   * Replaces the mirrors of a download that is not running (its URL stays: the partial file is
   * recorded under it); the next run spreads its segments over them.
   *
   * @param mirrors the new mirror URLs; empty for none
   * @throws InvalidRequestException when a URL is malformed or not http(s), or carries credentials
   * @throws IllegalStateException when it is running (pause it first)
   */
  public void mirrors(List<String> mirrors) throws InvalidRequestException {
    try {
      queue.mirrors(this, List.copyOf(mirrors));
    } catch (StoreException e) {
      throw new StateStoreException(e.getMessage(), e);
    }
  }

  /**
   * Changes where it stands among the waiting downloads: higher starts first, then older. A
   * running download goes on; the new priority orders its next wait.
   *
   * @param priority the new priority
   */
  public void priority(int priority) {
    StateCalls.run(() -> queue.priority(this, priority));
  }

  /** {@return what the server said about the file, once known} */
  public Optional<RemoteFile> remote() {
    DownloadJob j = job;
    if (j != null && j.remote().isPresent()) {
      var r = j.remote().get();
      return Optional.of(new RemoteFile(r.finalUrl(), r.length(), r.etag(), r.lastModified(), r.ranges()));
    }
    return queue.storedRemote(this);
  }

  /**
   * {@return the ranges of its file the store records as done: for a download that does not run
   * (paused, failed, waiting after a run), whose {@link #progress()} has no segments; empty when
   * nothing is recorded} A query of the store: for one download, not for each of a list.
   */
  public List<Progress.Segment> recordedSegments() {
    return queue.storedSegments(this);
  }

  /**
   * {@return how the connection count changed in this process's run and why (ramp, plateau, server
   * limit, slow connection replaced)}
   */
  public List<ConnectionChange> connectionChanges() {
    DownloadJob j = job;
    return j == null ? List.of() : j.connectionChanges();
  }

  /**
   * {@return what this process's run noted that changes no connection count, oldest first: mirrors
   * left out, URLs that failed over to a mirror, server quirks worked around, protocol trials
   * stopped}
   */
  public List<DownloadNote> notes() {
    DownloadJob j = job;
    return j == null ? List.of() : j.notes();
  }

  /**
   * {@return a snapshot of this run's connection metrics: phase timings, requests, retries, reuse
   * (none before it starts)}
   */
  public TransferMetrics metrics() {
    DownloadJob j = job;
    return j == null ? TransferMetrics.NONE : j.metrics();
  }

  /** {@return why this run last started over from zero (the remote file changed), if it did} */
  public Optional<String> restartReason() {
    DownloadJob j = job;
    return j == null ? Optional.empty() : Optional.ofNullable(j.lastRestartReason());
  }

  /**
   * Calls {@code listener} about this download: every state change, and progress every
   * {@code progressEvery} while it runs.
   *
   * @param listener what to call
   * @param progressEvery how often it hears the progress
   * @return the registration, to {@linkplain Registration#close() close} when it should hear no
   *     more
   */
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

  /** A run starts. */
  void started(DownloadJob j) {
    queued();
    pauseAsked = false;
    held = false;
    this.job = j;
  }

  void state(DownloadState s) {
    this.state = s;
  }
}
