package dev.braid.client;

import dev.braid.core.Checksum;
import dev.braid.core.ConnectionChange;
import dev.braid.core.DownloadFailure;
import dev.braid.core.DownloadNote;
import dev.braid.core.DownloadResult;
import dev.braid.core.OutageWait;
import dev.braid.core.Progress;
import dev.braid.core.RemoteFile;
import dev.braid.core.TransferMetrics;
import dev.braid.store.DownloadState;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One download as a face sees it at one moment, whichever side runs the engine: a value, so a
 * face can keep it, compare it with the next one and show it off its UI thread.
 *
 * @param id the download's id (aria2's gid is this number in 16 hex digits)
 * @param url the URL it fetches
 * @param name the file's name, or the URL's last part until the server named it
 * @param file the file it writes, or null until chosen
 * @param directory the folder it writes into
 * @param state where it stands
 * @param progress how far it is; speed, connections and segments are empty unless it is running
 * @param mirrors the other URLs of the same file
 * @param checksum the digest the file must match, or null
 * @param priority its place in the queue (higher starts first)
 * @param error why it failed, in a sentence, or null
 * @param failure why it failed, for exit codes and retry decisions, or null
 * @param outageWait while it waits out an outage: when it tries next and what failed last, or null
 * @param remote what the server said of the file (validators, length, ranges), or null before the first answer
 * @param result what the run that completed it did (its file, bytes fetched and reused, time, restarts; the
 *     connection metrics only from an engine in this process), or null unless it completed in this engine's run
 * @param restartReason why that run started over from the first byte (the file changed on the server), or null
 * @param metrics where its connections spent their time in the engine's current run
 *     ({@link TransferMetrics#NONE} when it has not run there, or the engine's side does not say)
 * @param connectionChanges each change of its connection count in the engine's current run, oldest first
 *     (empty when the engine's side does not say: a daemon tells none)
 * @param notes what its run noted on the way (a mirror left out, a server quirk worked around), oldest first
 *     (empty when the engine's side does not say: a daemon tells none)
 * @param cause the exception its run failed with, for a face's stack trace ({@code --debug}); only from an
 *     engine in this process, else null
 */
public record DownloadView(long id, String url, String name, Path file, Path directory, DownloadState state,
    Progress progress, List<String> mirrors, Checksum checksum, int priority, String error, DownloadFailure failure,
    OutageWait outageWait, RemoteFile remote, DownloadResult result, String restartReason, TransferMetrics metrics,
    List<ConnectionChange> connectionChanges, List<DownloadNote> notes, Throwable cause) {
  /**
   * Checks what every download has and copies the mirrors.
   *
   * @param id the download's id
   * @param url the URL it fetches
   * @param name the file's name
   * @param file the file it writes, or null
   * @param directory the folder it writes into
   * @param state where it stands
   * @param progress how far it is
   * @param mirrors the other URLs
   * @param checksum the digest, or null
   * @param priority its place in the queue
   * @param error why it failed, or null
   * @param failure why it failed, or null
   * @param outageWait the outage it waits out, or null
   * @param remote what the server said, or null
   * @param result the completing run's result, or null
   * @param restartReason why that run started over, or null
   * @param metrics where its connections spent their time
   * @param connectionChanges the changes of its connection count, oldest first
   * @param notes its run's notes, oldest first
   * @param cause the exception its run failed with here, or null
   */
  public DownloadView {
    if (url == null || name == null || directory == null || state == null || progress == null || metrics == null) {
      throw new IllegalArgumentException("a download view needs a url, a name, a folder, a state, progress and metrics");
    }
    mirrors = List.copyOf(mirrors);
    connectionChanges = List.copyOf(connectionChanges);
    notes = List.copyOf(notes);
  }

  /**
   * A view of a download no run of this engine completed, from an engine's side that measures no
   * connections: no result, {@link TransferMetrics#NONE}, no connection change, note or cause.
   *
   * @param id the download's id
   * @param url the URL it fetches
   * @param name the file's name
   * @param file the file it writes, or null
   * @param directory the folder it writes into
   * @param state where it stands
   * @param progress how far it is
   * @param mirrors the other URLs
   * @param checksum the digest, or null
   * @param priority its place in the queue
   * @param error why it failed, or null
   * @param failure why it failed, or null
   * @param outageWait the outage it waits out, or null
   * @param remote what the server said, or null
   */
  public DownloadView(long id, String url, String name, Path file, Path directory, DownloadState state,
      Progress progress, List<String> mirrors, Checksum checksum, int priority, String error, DownloadFailure failure,
      OutageWait outageWait, RemoteFile remote) {
    this(id, url, name, file, directory, state, progress, mirrors, checksum, priority, error, failure, outageWait, remote,
        null, null, TransferMetrics.NONE, List.of(), List.of(), null);
  }

  /** {@return why it runs the connections it runs (the last change), or null when none is told} */
  public ConnectionChange lastConnectionChange() {
    return connectionChanges.isEmpty() ? null : connectionChanges.get(connectionChanges.size() - 1);
  }

  /** {@return the file it writes, once chosen} */
  public Optional<Path> fileIfChosen() {
    return Optional.ofNullable(file);
  }

  /** {@return what the run that completed it did, when this engine completed it} */
  public Optional<DownloadResult> resultIfAny() {
    return Optional.ofNullable(result);
  }

  /** {@return why it failed, when it did} */
  public Optional<DownloadFailure> failureIfAny() {
    return Optional.ofNullable(failure);
  }
}
