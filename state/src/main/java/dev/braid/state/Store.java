package dev.braid.state;

import dev.braid.store.DownloadRecord;
import dev.braid.store.DownloadState;
import dev.braid.store.HostKnowledge;
import dev.braid.store.HostMemory;
import dev.braid.store.ProtocolMemory;
import dev.braid.store.RemoteIdentity;
import dev.braid.store.ResumeRecords;
import dev.braid.store.SegmentRecord;
import dev.braid.store.StateStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The SQLite store. Two connections per process, a writer and a reader, each under a lock of its
 * own ({@link Connections}): every write of this process runs on the writer (writes that arrive
 * together share one transaction, {@link GroupCommit}; each still returns only once committed),
 * the reads on the reader, and a thread reads back what it wrote. Thread-safe.
 *
 * <p>Callers keep invariant 1 (recorded progress never exceeds durable bytes) by forcing the data
 * file before {@link #checkpoint}: the store only promises that a checkpoint is atomic.
 *
 * <p>The engine's {@link StateStore}: this object is also its {@link ResumeRecords} and
 * {@link HostKnowledge}; its {@link QueueTable} the queue. Found for a plain path by
 * {@link SqliteStoreProvider}. Each table's statements are in a class of their own, which takes
 * the lock it needs from {@link Connections}; this one hands each call to its table.
 */
public final class Store implements StateStore, ResumeRecords, HostKnowledge {
  private final Connections db;
  private final QueueTable queue;
  private final LocalHostGrants grants = new LocalHostGrants();
  private final ResumeReads resumeReads;
  private final ResumeWrites resumeWrites;
  private final HostTable hostTable;
  private final SettingsTable settingsTable;

  private Store(Connections db) {
    this.db = db;
    this.queue = new QueueTable(db);
    this.resumeReads = new ResumeReads(db);
    this.resumeWrites = new ResumeWrites(db);
    this.hostTable = new HostTable(db);
    this.settingsTable = new SettingsTable(db);
  }

  /**
   * Opens (creating if needed) the database at {@code file} and brings its schema up to date.
   *
   * @param file the database file
   * @return the open store
   */
  public static Store open(Path file) {
    return new Store(Connections.open(file.toAbsolutePath()));
  }

  /**
   * Loads the SQLite driver and its native library now, so that a later {@link #open} does only
   * its file's work. The set-up is once per process and costs tens of milliseconds (the native
   * library, the driver's date formats); a command line that calls this on another thread while
   * it parses its arguments starts its first download sooner. Failures are left for {@code open}
   * to report.
   */
  public static void loadDriver() {
    DatabaseOpener.loadDriver();
  }

  /** {@return the database file} */
  public Path file() {
    return db.file();
  }

  /**
   * {@return whether another process (another connection) committed a change to the database since
   * the last call; true on the first} This process's own changes do not count: it knows them. Lets
   * a reader skip re-reading a large table nobody else touched.
   */
  public boolean changedByOthers() {
    return db.changedByOthers();
  }

  /** The download queue, on the same connection. */
  @Override
  public QueueTable queue() {
    return queue;
  }

  /** This store: the resume records are its {@code downloads}, {@code segments} and {@code blocks} tables. */
  @Override
  public ResumeRecords records() {
    return this;
  }

  /** This store: its {@code hosts} and {@code host_protocols} tables. */
  @Override
  public HostKnowledge hosts() {
    return this;
  }

  /** This process's grants (see {@link LocalHostGrants}). */
  @Override
  public LocalHostGrants grants() {
    return grants;
  }

  /** The database file's absolute path. */
  @Override
  public String location() {
    return db.file().toString();
  }

  @Override
  public String toString() {
    return "SQLite store " + db.file();
  }

  @Override
  public Map<String, String> settings() {
    return settingsTable.settings();
  }

  /** Stores a setting, replacing its earlier value; a null value removes it. */
  @Override
  public void saveSetting(String key, String value) {
    settingsTable.save(key, value);
  }

  /** The stored download whose final file is {@code target}, if any. */
  @Override
  public Optional<DownloadRecord> findByTarget(Path target) {
    return resumeReads.findByTarget(target);
  }

  /** Downloads of {@code url} that have not completed, newest first. */
  @Override
  public List<DownloadRecord> findUnfinished(String url) {
    return resumeReads.findUnfinished(url);
  }

  /** The stored download with this id, if any. */
  @Override
  public Optional<DownloadRecord> find(long id) {
    return resumeReads.find(id);
  }

  /** Every stored download, oldest first. */
  @Override
  public List<DownloadRecord> list() {
    return resumeReads.list();
  }

  /**
   * Records a new download to {@code target}, replacing any earlier record for the same target
   * (and its segments) in the same transaction. Returns the new id.
   */
  @Override
  public long create(String url, Path target, RemoteIdentity remote, List<SegmentRecord> segments) {
    return resumeWrites.create(url, target, remote, segments);
  }

  /** The stored segments of a download, by start offset. */
  @Override
  public List<SegmentRecord> segments(long id) {
    return resumeReads.segments(id);
  }

  /**
   * Replaces the segments of a download with {@code segments} in one transaction. The caller must
   * have forced every byte these records call done.
   *
   * @param id the record's id
   * @param segments every segment, as now durable
   */
  public void checkpoint(long id, List<SegmentRecord> segments) {
    checkpoint(id, segments, Map.of());
  }

  /**
   * Replaces the segments of a download and adds the sums of blocks that became complete, in one
   * transaction: a block's sum is recorded exactly when the progress that finishes it is.
   */
  @Override
  public void checkpoint(long id, List<SegmentRecord> segments, Map<Integer, Integer> newBlockSums) {
    resumeWrites.checkpoint(id, segments, newBlockSums);
  }

  /**
   * The last checkpoint of a download whose every byte is done and forced: records the progress
   * and the block sums, and marks it {@link DownloadState#COMPLETED}, in one transaction. The
   * caller renames its part file after this (a crash in between leaves a complete record with its
   * part file, which the engine renames on the next run).
   */
  @Override
  public void complete(long id, List<SegmentRecord> segments, Map<Integer, Integer> newBlockSums) {
    resumeWrites.complete(id, segments, newBlockSums);
  }

  /** The recorded CRC32C of each finished block of a download, by block index. */
  @Override
  public Map<Integer, Integer> blockSums(long id) {
    return resumeReads.blockSums(id);
  }

  /**
   * Replaces a download's progress after its bytes on disk were found damaged: the segments as
   * trimmed, and only the block sums still valid, in one transaction.
   */
  @Override
  public void repair(long id, List<SegmentRecord> segments, Map<Integer, Integer> validSums) {
    resumeWrites.repair(id, segments, validSums);
  }

  /** What was learned about {@code host} ({@code host:port}), if anything. */
  @Override
  public Optional<HostMemory> host(String host) {
    return hostTable.host(host);
  }

  /** What was learned about every host, the most recently updated first, at most {@code limit}. */
  @Override
  public List<HostMemory> recent(int limit) {
    return hostTable.recent(limit);
  }

  /** Records what a download learned about a host, replacing what was known. */
  @Override
  public void remember(HostMemory m) {
    hostTable.remember(m);
  }

  /** What each HTTP version delivered from {@code host} ({@code host:port}), if anything was measured. */
  @Override
  public List<ProtocolMemory> protocols(String host) {
    return hostTable.protocols(host);
  }

  /** Records what a download learned about one HTTP version of a host, replacing what was known of it. */
  @Override
  public void remember(ProtocolMemory m) {
    hostTable.remember(m);
  }

  /** Sets the status (and error text, null to clear) of a download. */
  @Override
  public void markStatus(long id, DownloadState status, String error) {
    resumeWrites.markStatus(id, status, error);
  }

  /**
   * Moves a download to a new URL that was shown to serve the same file (a refreshed link): its
   * segments and block sums stay; the URL and what the new server says about the file replace the old.
   */
  @Override
  public void changeUrl(long id, String url, RemoteIdentity remote) {
    resumeWrites.changeUrl(id, url, remote);
  }

  /** Forgets a download and its segments. */
  @Override
  public void delete(long id) {
    resumeWrites.delete(id);
  }

  @Override
  public void close() {
    db.close();
  }

  /** The connections, for the tests of their locks. */
  Connections connections() {
    return db;
  }
}
