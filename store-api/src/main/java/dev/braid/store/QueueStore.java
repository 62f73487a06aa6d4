package dev.braid.store;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The persistent download queue: what was submitted, in which order, where each entry stands
 * and which owner drives it. Many owners (processes, on one machine or many) may share it.
 *
 * <h2>Claims</h2>
 * An entry is driven only by the owner that claimed it ({@link #claim}, {@link #start}). A claim
 * is held under a lease: the owner's {@link #heartbeat} renews it, and once the owner stops
 * renewing (it died, or lost the store) the claim lapses after a bounded time and another owner
 * may take the entry. What "held" means is the store's to decide, and {@link #held} tells it:
 * the SQLite store counts an owner on this machine as holding while its process runs (the process
 * table answers at once) and one on another machine while its heartbeat is recent; a server
 * database counts a lease as running until its expiry, by the database's clock. Claiming and
 * starting are atomic across owners: two never hold one entry.
 *
 * <h2>Change feed</h2>
 * Each insert, update or removal of an entry takes the next change number, in commit order
 * across owners; {@link #mark} reads where the feed stands, {@link #changedBetween} and
 * {@link #removedBetween} what happened in a range of it.
 *
 * <h2>Headers</h2>
 * An entry's request headers (cookies, credentials, a referer: whatever a browser handed over)
 * are kept beside it, not in it: {@link #headers} reads them and {@link #setHeaders} replaces
 * them, and no other read (an entry, a page, the change feed) carries them, so nothing that
 * shows entries can show them. They go when their entry completes or is removed. They are secrets
 * held in the store as they are written: a store is only as private as who may read it (its
 * files, or its database role).
 *
 * <p>Threads: the queue's loop thread (starting, heartbeats, the feed), the callers of the
 * public API (submit, pause, resume, remove, changes) and download driver threads
 * ({@link #finish}), concurrently. Each method is atomic on its own.
 */
public interface QueueStore {
  /**
   * Adds an entry in {@code state} (QUEUED, or PAUSED: it waits until someone resumes it), claimed
   * by {@code owner} (the submitting process), so that no other owner running the queue takes it
   * while its submitter holds it; returns it.
   *
   * @param urls the main URL, then its mirrors
   * @param file the file to write, or null for the server's name in {@code directory}
   * @param directory the folder for the server's name
   * @param options the request's settings, as {@link OptionsText} encodes them
   * @param priority higher starts first
   * @param owner the submitting process, as {@link ProcessOwner} names it
   * @param state {@link DownloadState#QUEUED} or {@link DownloadState#PAUSED}
   * @return the entry as stored, with its new id
   */
  default QueueEntry add(List<String> urls, Path file, Path directory, Map<String, String> options, int priority,
      String owner, DownloadState state) {
    return addAll(List.of(new NewEntry(urls, file, directory, options, priority, owner, state))).get(0);
  }

  /**
   * Adds the entries in one transaction, in order (each gets a higher id than the one before);
   * returns them in the same order. All are added or, on a failure, none.
   *
   * @param entries what to add, in order
   * @return the entries as stored, with their new ids
   */
  List<QueueEntry> addAll(List<NewEntry> entries);

  /**
   * {@return the entry with this id, if any}
   *
   * @param id the entry's id
   */
  Optional<QueueEntry> get(long id);

  /**
   * Where the change feed stands, read together: the highest id given so far, the latest change
   * number, and whether another owner (another connection) wrote since this store's previous
   * mark (true on the first). A store that cannot tell answers true.
   *
   * @return the highest id, the latest change number and whether another owner wrote
   */
  ChangeMark mark();

  /**
   * The entries as they stand whose latest change is after {@code after} and at most
   * {@code upTo}, oldest change first. An entry changed again since {@code upTo} is left for
   * the next look, under its new number.
   *
   * @param after the change number already seen
   * @param upTo the last change number to include
   * @return the changed entries, oldest change first
   */
  List<QueueEntry> changedBetween(long after, long upTo);

  /**
   * {@return the ids of the entries removed after change {@code after} and at most {@code upTo},
   * oldest first}
   *
   * @param after the change number already seen
   * @param upTo the last change number to include
   */
  List<Long> removedBetween(long after, long upTo);

  /** {@return how many entries are in each state and which are active, from one snapshot (see {@link QueueCensus})} */
  QueueCensus census();

  /** {@return every entry, oldest first} */
  List<QueueEntry> all();

  /**
   * A page of the entries in {@code states}: in start order (higher priority first, then older
   * first) when {@code startOrder}, else oldest first. An {@code offset} of 0 or more skips that
   * many; a negative one counts from the end (-1 is the last entry) and the page runs backwards
   * from there, as aria2's tellWaiting and tellStopped do. At most {@code limit} entries; none for
   * a limit of 0 or less. A store reads only the page, not every entry: a long history must not
   * make a list call slower or a process bigger.
   *
   * @param states the states to list
   * @param startOrder start order rather than oldest first
   * @param offset entries to skip, or a negative position counted from the end
   * @param limit the most entries to return
   * @return the page, in the order asked for
   */
  List<QueueEntry> page(Set<DownloadState> states, boolean startOrder, long offset, int limit);

  /**
   * The ids of entries that want to run (queued, or active under an owner that may be gone), in
   * the order they should start (priority, then id): at most {@code limit} after skipping
   * {@code offset}. An entry waiting out an outage is left out until its {@link EntryRetry#atMillis}
   * (by this machine's clock); {@link #start} refuses it until then too.
   *
   * @param limit the most ids to return
   * @param offset ids to skip in that order
   * @return the ids, first to start first
   */
  List<Long> runnable(int limit, int offset);

  /**
   * {@return entries for the same URL and target choice ({@code file} null: the server's name in
   * {@code directory}), newest first}
   *
   * @param url the main URL
   * @param file the file, or null for the server's name
   * @param directory the folder of the server's name
   */
  List<QueueEntry> matching(String url, Path file, Path directory);

  /**
   * {@return the newest unfinished entry that writes {@code file}, whatever its URL}
   *
   * @param file the target file
   */
  Optional<QueueEntry> unfinishedWithFile(Path file);

  /**
   * Whether {@code e}'s owner still holds its claim, judged from the entry as read (its owner
   * and heartbeat) by this store's rule; false for an entry without an owner. For what users are
   * shown and told; {@link #claim} and {@link #start} decide again, atomically.
   *
   * @param e the entry as read
   * @return whether its owner holds it
   */
  boolean held(QueueEntry e);

  /**
   * Makes {@code owner} the holder of the entry unless another owner {@linkplain #held holds} it;
   * whether it does now.
   *
   * @param id the entry
   * @param owner the owner that would hold it
   * @return whether {@code owner} holds the entry now
   */
  boolean claim(long id, String owner);

  /**
   * Claims a runnable entry for {@code owner} and marks it active, atomically. Returns the entry
   * as started; empty when it is gone, no longer runnable (its claim, if {@code owner}'s, is given
   * up) or held by another owner.
   *
   * @param id the entry
   * @param owner the owner that would run it
   * @return the entry as started, or empty when it cannot start
   */
  Optional<QueueEntry> start(long id, String owner);

  /**
   * Gives up {@code owner}'s claim on the entry (nothing if another owner holds it).
   *
   * @param id the entry
   * @param owner the owner giving up its claim
   */
  void release(long id, String owner);

  /**
   * Sets the state and error (both null to clear the error) of an entry, whoever holds it; a person
   * acted on it, so it no longer waits out an outage ({@link EntryRetry#NONE}).
   *
   * @param id the entry
   * @param state its new state
   * @param error the error message, or null
   * @param errorKind the kind of the failure, or null
   */
  void setState(long id, DownloadState state, String error, String errorKind);

  /**
   * Queues an entry again with a new request (the same download submitted once more), claimed by
   * {@code owner}, in {@code state}: {@link DownloadState#QUEUED}, or {@link DownloadState#PAUSED} for one
   * submitted paused (written so in the same statement: no queue runner can start it in between);
   * the caller has made sure no other owner holds it. It no longer waits out an outage.
   *
   * @param id the entry
   * @param urls the new main URL, then its mirrors
   * @param options the new request's settings
   * @param priority the new priority
   * @param owner the process that submitted it again
   * @param state {@link DownloadState#QUEUED} or {@link DownloadState#PAUSED}
   */
  void requeue(long id, List<String> urls, Map<String, String> options, int priority, String owner, DownloadState state);

  /**
   * Replaces the URLs of an entry (a refreshed link) and pins its file, which the old URL may have
   * named.
   *
   * @param id the entry
   * @param urls the new main URL, then its mirrors
   * @param file the file the download writes
   */
  void changeUrls(long id, List<String> urls, Path file);

  /**
   * Replaces an entry's URLs (the first is the main one, the rest mirrors), whoever holds it.
   *
   * @param id the entry
   * @param urls the main URL, then its mirrors
   */
  void updateUrls(long id, List<String> urls);

  /**
   * Changes an entry's priority (higher starts first), whoever holds it.
   *
   * @param id the entry
   * @param priority the new priority
   */
  void updatePriority(long id, int priority);

  /**
   * Replaces the stored options of an entry (a rate limit changed while it runs, say).
   *
   * @param id the entry
   * @param options the request's settings, as {@link OptionsText} encodes them
   */
  void updateOptions(long id, Map<String, String> options);

  /**
   * Records the progress of the entries {@code owner} drives, renews the lease of every claim it
   * holds, and returns the state the store holds now for each entry it holds (absent: removed or
   * taken), so that the owner sees pauses and removals others asked for.
   *
   * @param owner the owner renewing its claims
   * @param progress the progress of the entries it drives
   * @return the stored state of each entry {@code owner} still holds
   */
  Map<Long, DownloadState> heartbeat(String owner, List<EntryProgress> progress);

  /**
   * Ends {@code owner}'s run of an entry atomically: records its last progress, sets its state,
   * error and retry state (unless {@code state} is null: a removal left them to the remover) and
   * gives up the claim; a {@link DownloadState#COMPLETED} entry's headers ({@link #headers}) go in
   * the same transaction, as it sends no more requests. Nothing changes when another owner holds
   * the entry now (its claim went over while this run was judged gone: the late end is not the
   * new holder's) or its completion is recorded already (a completion is recorded once). Returns
   * the entry as stored now, if it still exists.
   *
   * @param owner the owner whose run ends
   * @param last the entry's last progress
   * @param state its end state, or null to keep the stored one
   * @param error the error message, or null
   * @param errorKind the kind of the failure, or null
   * @param retry when a {@link DownloadState#QUEUED} entry runs again after an outage, else {@link EntryRetry#NONE}
   * @return the entry as stored now, or empty when it was removed
   */
  Optional<QueueEntry> finish(String owner, EntryProgress last, DownloadState state, String error, String errorKind,
      EntryRetry retry);

  /**
   * {@return the request headers stored for entry {@code id}, by name; empty for none or for an
   * entry that is gone} The values are secrets: never print them.
   *
   * @param id the entry
   */
  Map<String, String> headers(long id);

  /**
   * Replaces the request headers stored for entry {@code id} with {@code headers} (empty: none);
   * nothing for an entry that is gone. Each name and value is a header's as the engine checked it
   * (no line break, no {@code =} in a name).
   *
   * @param id the entry
   * @param headers its new headers, by name
   */
  void setHeaders(long id, Map<String, String> headers);

  /**
   * Forgets an entry and its headers (the resume record of its file is kept).
   *
   * @param id the entry
   */
  void remove(long id);
}
