package dev.braid.state;

import dev.braid.store.ChangeMark;
import dev.braid.store.DownloadState;
import dev.braid.store.EntryProgress;
import dev.braid.store.EntryRetry;
import dev.braid.store.NewEntry;
import dev.braid.store.ProcessOwner;
import dev.braid.store.QueueCensus;
import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The persistent download queue: what was submitted, in which order, where it stands and which
 * process drives it. Several processes may share it: an entry is driven only by the process that
 * {@linkplain #claim claimed} it, and a claim held by a process that is gone can be taken over.
 * Reads run on the store's reader, writes on its writer (see {@link Store}).
 *
 * <p>A claim is held while {@link ProcessOwner#holds} says its owner runs: at once for a process
 * of this machine (its pid and start time), within its last heartbeat's 30 s for another's.
 *
 * <p>Its statements are in classes of their own: {@link QueueReads}, {@link QueueFeed},
 * {@link QueueLeases}, {@link QueueSubmissions} and {@link QueueHeaders}, over the rows of {@link QueueRows}; each
 * takes the lock it needs itself.
 */
public final class QueueTable implements QueueStore {
  private final QueueReads reads;
  private final QueueFeed feed;
  private final QueueLeases leases;
  private final QueueSubmissions submissions;
  private final QueueHeaders headers;

  QueueTable(Connections db) {
    QueueRows rows = new QueueRows(db);
    this.reads = new QueueReads(db, rows);
    this.feed = new QueueFeed(db, rows);
    this.headers = new QueueHeaders(db);
    this.leases = new QueueLeases(db, rows, headers);
    this.submissions = new QueueSubmissions(db, rows, headers);
  }

  /**
   * Adds an entry in state {@link DownloadState#QUEUED}, claimed by {@code owner} (the submitting
   * process), so that no other process running the queue takes it while its submitter lives;
   * returns it.
   *
   * @param urls the main URL, then its mirrors
   * @param file the file to write, or null for the server's name
   * @param directory the folder for the server's name
   * @param options the request's settings
   * @param priority higher starts first
   * @param owner the submitting process
   * @return the entry as stored, with its new id
   */
  public QueueEntry add(List<String> urls, Path file, Path directory, Map<String, String> options, int priority,
      String owner) {
    return add(urls, file, directory, options, priority, owner, DownloadState.QUEUED);
  }

  @Override
  public List<QueueEntry> addAll(List<NewEntry> entries) {
    return submissions.addAll(entries);
  }

  @Override
  public Optional<QueueEntry> get(long id) {
    return reads.get(id);
  }

  /** {@return the highest id given so far, 0 for an empty queue} */
  public long newestId() {
    return feed.newestId();
  }

  /**
   * {@return the number of the latest change to the queue: each insert, update or removal of an
   * entry takes the next one (schema v8), in commit order across processes} 0 for an empty queue.
   */
  public long latestChange() {
    return feed.latestChange();
  }

  /**
   * Whether another connection committed since the last look ({@link Store#changedByOthers}),
   * the newest id and the latest change, in one read transaction: all three from one snapshot.
   * Read one by one, a commit of another process landing between them was either announced
   * without being read, or read under numbers the next look then took as this process's own.
   */
  @Override
  public ChangeMark mark() {
    return feed.mark();
  }

  /**
   * The entries as they stand whose latest change is after {@code after} and at most
   * {@code upTo} (see {@link #latestChange}), oldest change first. An entry changed again since
   * {@code upTo} is left for the next look, under its new number.
   */
  @Override
  public List<QueueEntry> changedBetween(long after, long upTo) {
    return feed.changedBetween(after, upTo);
  }

  /** The ids of the entries removed after change {@code after} and at most {@code upTo}, oldest first. */
  @Override
  public List<Long> removedBetween(long after, long upTo) {
    return feed.removedBetween(after, upTo);
  }

  /**
   * How many entries are in each state (counted from the state index) and the active ones, in
   * one read transaction.
   */
  @Override
  public QueueCensus census() {
    return reads.census();
  }

  /** Every entry, oldest first. */
  @Override
  public List<QueueEntry> all() {
    return reads.all();
  }

  /**
   * A page of the entries in {@code states}: in start order (higher priority first, then older
   * first; through the state index) when {@code startOrder}, else oldest first (in id order: meant
   * for states that make up much of the queue, such as the finished ones). An
   * {@code offset} of 0 or more skips that many; a negative one counts from the end (-1 is the
   * last entry) and the page runs backwards from there, as aria2's tellWaiting and tellStopped
   * do. At most {@code limit} entries; none for a limit of 0 or less.
   */
  @Override
  public List<QueueEntry> page(Set<DownloadState> states, boolean startOrder, long offset, int limit) {
    return reads.page(states, startOrder, offset, limit);
  }

  /**
   * The ids of entries that want to run (queued, or active under an owner that may be gone), in
   * the order they should start: at most {@code limit} of them after skipping {@code offset} (a
   * batch can hold thousands). Ids only, from the index alone: the queue looks at many entries
   * to start one, and decoding each whole was a large part of its work in a batch.
   */
  @Override
  public List<Long> runnable(int limit, int offset) {
    return reads.runnable(limit, offset);
  }

  /** Entries for the same URL and target choice, newest first: a request submitted again continues them. */
  @Override
  public List<QueueEntry> matching(String url, Path file, Path directory) {
    return reads.matching(url, file, directory);
  }

  /**
   * The newest unfinished entry that writes {@code file} (given with -o), whatever its URL: a
   * request of another URL for the same file continues it (a refreshed link).
   */
  @Override
  public Optional<QueueEntry> unfinishedWithFile(Path file) {
    return reads.unfinishedWithFile(file);
  }

  /** The owner's process runs ({@link ProcessOwner#holds}). */
  @Override
  public boolean held(QueueEntry e) {
    return ProcessOwner.holds(e);
  }

  @Override
  public boolean claim(long id, String owner) {
    return claim(id, owner, this::held);
  }

  /**
   * Makes {@code owner} the driver of the entry, unless another process holds it and
   * {@code held} says that process is still running. Atomic across processes (one IMMEDIATE
   * transaction).
   */
  boolean claim(long id, String owner, Predicate<QueueEntry> held) {
    return leases.claim(id, owner, held);
  }

  /**
   * Claims a runnable entry for {@code owner} and marks it active, in one transaction (a batch
   * of small files starts one every few milliseconds). Returns the entry as started; empty when
   * it is gone, no longer runnable (its claim, if {@code owner}'s, is given up) or held by a
   * live other owner.
   */
  Optional<QueueEntry> start(long id, String owner, Predicate<QueueEntry> held) {
    return leases.start(id, owner, held);
  }

  @Override
  public Optional<QueueEntry> start(long id, String owner) {
    return start(id, owner, this::held);
  }

  /** Gives up {@code owner}'s claim on the entry (no-op if someone else holds it). */
  @Override
  public void release(long id, String owner) {
    leases.release(id, owner);
  }

  /** Sets the state and error (both null to clear the error) of an entry; it no longer waits out an outage. */
  @Override
  public void setState(long id, DownloadState state, String error, String errorKind) {
    submissions.setState(id, state, error, errorKind);
  }

  @Override
  public void requeue(long id, List<String> urls, Map<String, String> options, int priority, String owner, DownloadState state) {
    submissions.requeue(id, urls, options, priority, owner, state);
  }

  /** Replaces the URLs of an entry (a refreshed link) and pins its file, which the old URL may have named. */
  @Override
  public void changeUrls(long id, List<String> urls, Path file) {
    submissions.changeUrls(id, urls, file);
  }

  /** Replaces an entry's URLs (the first is the main one, the rest mirrors), whoever holds it. */
  @Override
  public void updateUrls(long id, List<String> urls) {
    submissions.updateUrls(id, urls);
  }

  /** Changes an entry's priority (higher starts first), whoever holds it. */
  @Override
  public void updatePriority(long id, int priority) {
    submissions.updatePriority(id, priority);
  }

  /** Replaces the stored options of an entry (a rate limit changed while it runs, say). */
  @Override
  public void updateOptions(long id, Map<String, String> options) {
    submissions.updateOptions(id, options);
  }

  /**
   * Records the progress of the entries {@code owner} drives and returns the state the store
   * holds for each of them now (absent: removed), so the owner sees pauses and removals asked
   * by other processes.
   */
  @Override
  public Map<Long, DownloadState> heartbeat(String owner, List<EntryProgress> progress) {
    return leases.heartbeat(owner, progress);
  }

  /**
   * Ends {@code owner}'s run of an entry in one transaction: records its last progress, sets its
   * state and error (unless {@code state} is null: a removal left the state to the remover) and
   * gives up the claim. Returns the entry as stored now, if it still exists.
   */
  @Override
  public Optional<QueueEntry> finish(String owner, EntryProgress last, DownloadState state, String error, String errorKind,
      EntryRetry retry) {
    return leases.finish(owner, last, state, error, errorKind, retry);
  }

  /** In the {@code queue_headers} table, which no read of entries touches ({@link QueueHeaders}). */
  @Override
  public Map<String, String> headers(long id) {
    return headers.get(id);
  }

  @Override
  public void setHeaders(long id, Map<String, String> headers) {
    this.headers.set(id, headers);
  }

  /** Forgets an entry and its headers (the engine's resume record of its file is kept). */
  @Override
  public void remove(long id) {
    submissions.remove(id);
  }
}
