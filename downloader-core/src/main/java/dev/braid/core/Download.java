package dev.braid.core;

import dev.braid.store.DownloadState;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
 *
 * <p>Braid makes every {@code Download}; while anyone holds one, every look-up of the same id
 * returns that same object. An interface, as OkHttp's {@code Call}, so that this package names
 * no part of the engine that implements it; not meant to be implemented elsewhere.
 */
public interface Download {
  /** {@return the queue's id of this download: stable, shown by {@code braid list}} */
  long id();

  /** {@return the URL it was submitted with} */
  String url();

  /** {@return a name to show: the final file's, once known, else the URL's last path part} */
  String name();

  /** {@return the final file, once the server's answer fixed it (or the one the request named)} */
  Optional<Path> file();

  /**
   * {@return the folder it was submitted to write into (the file's folder unless the request named
   * a file elsewhere)}
   */
  Path directory();

  /** {@return where it stands now} */
  DownloadState state();

  /** {@return other URLs of the same file it was submitted with (mirrors)} */
  List<String> mirrors();

  /** {@return the digest the file must have, if one was given (also for downloads another process submitted)} */
  Optional<Checksum> checksum();

  /** {@return its priority in the queue: higher starts first} */
  int priority();

  /** {@return why it failed, while {@link #state()} is {@link DownloadState#FAILED}} */
  Optional<String> error();

  /**
   * {@return why it failed, while {@link #state()} is {@link DownloadState#FAILED}: the kind and
   * detail the state database keeps, so the same whether this engine saw the failure or read it
   * from the database (after a restart, or another process's run)} {@link FailureKind#INTERNAL}
   * for a failure recorded without a kind.
   */
  Optional<DownloadFailure> failure();

  /** {@return its own policy for waiting out outages; empty when the {@code Braid}'s applies} */
  Optional<OutageRetry> outageRetry();

  /**
   * Its own policy for waiting out outages from now on (see {@link OutageRetry}), kept in the
   * queue; a running download's run ends by it too.
   *
   * @param policy the policy
   */
  void outageRetry(OutageRetry policy);

  /**
   * {@return when and why it waits out an outage, while it is {@link DownloadState#QUEUED} after a
   * run that failed for a passing reason (see {@link OutageRetry})} Empty otherwise, and once a
   * person paused, resumed or removed it.
   */
  Optional<OutageWait> outageWait();

  /**
   * {@return whether it was asked of this Braid ({@link Braid#submit}), rather than found in the
   * state database: another process's, or an earlier run's that nobody asked for again} A listener
   * that reports one job's downloads (a command line's {@code --json}) keeps to these.
   */
  boolean submittedHere();

  /**
   * {@return how far it is} Live while this process drives it; otherwise as last recorded. A run
   * that has not learned the file yet (its first request is out, or failed) shows the bytes
   * recorded before it, which it keeps for the resume.
   */
  Progress progress();

  /**
   * {@return the outcome of the current (or last) run: the result once the file is complete,
   * durable and renamed; or a {@link DownloadException} saying why not
   * ({@link DownloadPausedException} for a pause)} A {@link #resume()} after that starts a new run
   * with a new future. It completes only after every connection of the run has stopped and its
   * progress is recorded. For a download another process drives, it completes only once this
   * {@code Braid} runs it: follow such a download with {@link #state()} or a listener. A run that
   * ends waiting out an outage ({@link #outageWait()}) leaves it open for the next run.
   */
  CompletableFuture<DownloadResult> result();

  /**
   * Stops the download and records its progress; {@link #result()} then completes with a
   * {@link DownloadPausedException}, unless a {@link #resume()} came before the run stopped: then
   * it runs again and the result stays open for that run. A queued download stays where it is
   * until resumed.
   */
  void pause();

  /**
   * Queues a paused or failed download again; it continues from the bytes on disk. Asked while a
   * run here stops after a {@link #pause()}, or while a run's end completes {@link #result()}, it
   * takes effect once that run stopped; a run going on is left as it is.
   */
  void resume();

  /** Stops the download and removes it from the queue along with its partial file (a completed file stays). */
  void cancel();

  /**
   * Stops the download and removes it from the queue. With {@code deleteFile}, its file goes too
   * (partial or complete); without, a partial file and its resume record stay, so submitting the
   * same URL again continues it.
   *
   * @param deleteFile whether its file goes too, partial or complete
   */
  void remove(boolean deleteFile);

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
  void changeUrl(URI uri) throws InvalidRequestException;

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
  void headers(Map<String, String> headers) throws InvalidRequestException;

  /**
   * Changes this download's own rate limit (bytes per second, 0 for none), also while it runs.
   *
   * @param bytesPerSecond the new limit; 0 for none
   */
  void rateLimit(long bytesPerSecond);

  /**
   * {@return its own proxy as the queue holds it: the URL without credentials, or
   * {@link DownloadRequest#DIRECT}; empty when the engine's proxy applies} Read from the queue's
   * entry, so a download another process submitted shows its own too.
   */
  Optional<String> proxy();

  /**
   * Gives a download that is not running a proxy of its own (see {@link DownloadRequestBuilder#proxy}:
   * a URL, {@link DownloadRequest#DIRECT}, or null for the engine's); its next run uses it.
   *
   * @param url a proxy URL, {@link DownloadRequest#DIRECT}, or null for the engine's
   * @throws IllegalArgumentException for a URL that names no usable proxy
   * @throws IllegalStateException when it is running (pause it first)
   */
  void proxy(String url);

  /**
   * Replaces the mirrors of a download that is not running (its URL stays: the partial file is
   * recorded under it); the next run spreads its segments over them.
   *
   * @param mirrors the new mirror URLs; empty for none
   * @throws InvalidRequestException when a URL is malformed or not http(s), or carries credentials
   * @throws IllegalStateException when it is running (pause it first)
   */
  void mirrors(List<String> mirrors) throws InvalidRequestException;

  /**
   * Changes where it stands among the waiting downloads: higher starts first, then older. A
   * running download goes on; the new priority orders its next wait.
   *
   * @param priority the new priority
   */
  void priority(int priority);

  /** {@return what the server said about the file, once known} */
  Optional<RemoteFile> remote();

  /**
   * {@return the ranges of its file the store records as done: for a download that does not run
   * (paused, failed, waiting after a run), whose {@link #progress()} has no segments; empty when
   * nothing is recorded} A query of the store: for one download, not for each of a list.
   */
  List<Progress.Segment> recordedSegments();

  /**
   * {@return how the connection count changed in this process's run and why (ramp, plateau, server
   * limit, slow connection replaced)}
   */
  List<ConnectionChange> connectionChanges();

  /**
   * {@return what this process's run noted that changes no connection count, oldest first: mirrors
   * left out, URLs that failed over to a mirror, server quirks worked around, protocol trials
   * stopped}
   */
  List<DownloadNote> notes();

  /**
   * {@return a snapshot of this run's connection metrics: phase timings, requests, retries, reuse
   * (none before it starts)}
   */
  TransferMetrics metrics();

  /** {@return why this run last started over from zero (the remote file changed), if it did} */
  Optional<String> restartReason();

  /**
   * Calls {@code listener} about this download: every state change, and progress every
   * {@code progressEvery} while it runs.
   *
   * @param listener what to call
   * @param progressEvery how often it hears the progress
   * @return the registration, to {@linkplain Registration#close() close} when it should hear no
   *     more
   */
  Registration listen(DownloadListener listener, Duration progressEvery);
}
