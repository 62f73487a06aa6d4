package dev.braid.state;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import dev.braid.store.DownloadRecord;
import dev.braid.store.DownloadStatus;
import dev.braid.store.HostKnowledge;
import dev.braid.store.HostMemory;
import dev.braid.store.ProtocolMemory;
import dev.braid.store.RemoteIdentity;
import dev.braid.store.ResumeRecords;
import dev.braid.store.SegmentRecord;
import dev.braid.store.StateStore;
import dev.braid.store.StoreException;
import org.sqlite.JDBC;

/**
 * The SQLite store. One connection per process, every method serialised on it, so this process has
 * exactly one writer; other processes on the same file wait up to the busy timeout (WAL lets their
 * readers go on). Writes that arrive together share one transaction ({@link GroupCommit}); each
 * still returns only once committed. Thread-safe.
 *
 * <p>Callers keep invariant 1 (recorded progress never exceeds durable bytes) by forcing the data
 * file before {@link #checkpoint}: the store only promises that a checkpoint is atomic.
 *
 * <p>The engine's {@link StateStore}: this object is also its {@link ResumeRecords} and
 * {@link HostKnowledge}; its {@link QueueTable} the queue. Found for a plain path by
 * {@link SqliteStoreProvider}.
 */
public final class Store implements StateStore, ResumeRecords, HostKnowledge {
  /** As long as the busy timeout: how long an open waits for another process that holds the database. */
  private static final long OPEN_PATIENCE_NANOS = 5_000_000_000L;
  private static final String OPTIONS =
      "?journal_mode=WAL&synchronous=NORMAL&busy_timeout=5000&transaction_mode=IMMEDIATE&foreign_keys=true"
          // inserts return their ids (RETURNING); with generated keys on, the driver matched
          // every update's SQL against a regular expression to see whether it was an insert
          + "&jdbc.get_generated_keys=false";

  /**
   * The columns of a record, in the order {@link #read} reads them: by position, as the driver
   * otherwise looks each name up in every result set anew.
   */
  static final String RECORD = "id, url, target, final_url, length, etag, last_modified, ranges, status, error";
  static final String UNFINISHED =
      "SELECT " + RECORD + " FROM downloads WHERE url = ? AND status <> 'COMPLETED' ORDER BY id DESC";

  private final Path file;
  private final Connection connection;
  private final QueueTable queue;
  private final GroupCommit writes;
  private final LocalHostGrants grants = new LocalHostGrants();
  // SQL texts are constants of this package, so the map stays small: each is compiled once per
  // connection instead of on every call (compiling was a third of the store's time in a batch)
  private final Map<String, PreparedStatement> statements = new HashMap<>();
  /** {@code PRAGMA data_version} at the last {@link #changedByOthers()}; -1 before the first. */
  private long dataVersion = -1;

  private Store(Path file, Connection connection) {
    this.file = file;
    this.connection = connection;
    this.queue = new QueueTable(this);
    this.writes = new GroupCommit(this);
  }

  /** Opens (creating if needed) the database at {@code file} and brings its schema up to date. */
  public static Store open(Path file) {
    Path absolute = file.toAbsolutePath();
    try {
      Path parent = absolute.getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
    } catch (IOException e) {
      throw new StoreException("cannot create the folder of state database " + absolute + ": " + e, e);
    }
    Driver.load();
    long deadline = System.nanoTime() + OPEN_PATIENCE_NANOS;
    while (true) {
      Connection c = null;
      try {
        c = JDBC.createConnection("jdbc:sqlite:" + absolute + OPTIONS, new Properties());
        Migrations.apply(c);
        return new Store(absolute, c);
      } catch (SQLException e) {
        closeQuietly(c);
        if (!busy(e) || System.nanoTime() > deadline) {
          throw new StoreException("cannot open state database " + absolute + ": " + describe(e), e);
        }
      }
      // the switch to WAL at a new database's first open does not wait on the busy timeout: a
      // second process opening it at that instant got SQLITE_BUSY at once, so try again
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StoreException("interrupted while opening state database " + absolute, e);
      }
    }
  }

  /**
   * Loads the SQLite driver and its native library now, so that a later {@link #open} does only
   * its file's work. The set-up is once per process and costs tens of milliseconds (the native
   * library, the driver's date formats); a command line that calls this on another thread while
   * it parses its arguments starts its first download sooner. Failures are left for {@code open}
   * to report.
   */
  public static void loadDriver() {
    Driver.load();
  }

  /**
   * The driver's once-per-process set-up, run by this class's initialisation: an open that comes
   * while {@link #loadDriver} is still at work waits for it instead of repeating it.
   */
  private static final class Driver {
    static {
      try {
        // the driver itself, here and in open(): DriverManager would first look for every
        // java.sql.Driver on the class path (a ServiceLoader scan, ~20 ms of a start-up)
        JDBC.createConnection("jdbc:sqlite::memory:", new Properties()).close();
      } catch (SQLException | RuntimeException | LinkageError e) {
        // open() meets the same problem and reports it with the database's name
      }
    }

    static void load() {
      // the work is in the static initialiser
    }
  }

  private static boolean busy(SQLException e) {
    String m = e.getMessage();
    return m != null && (m.contains("SQLITE_BUSY") || m.contains("SQLITE_LOCKED"));
  }

  /** The database file. */
  public Path file() {
    return file;
  }

  /**
   * Whether another process (another connection) committed a change to the database since the
   * last call; true on the first. This process's own changes do not count: it knows them. Lets a
   * reader skip re-reading a large table nobody else touched.
   */
  public synchronized boolean changedByOthers() {
    try (ResultSet rs = statement("PRAGMA data_version").executeQuery()) {
      long v = rs.getLong(1);
      boolean changed = v != dataVersion;
      dataVersion = v;
      return changed;
    } catch (SQLException e) {
      throw failure("read the data version", e);
    }
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
    return file.toString();
  }

  @Override
  public String toString() {
    return "SQLite store " + file;
  }

  @Override
  public synchronized Map<String, String> settings() {
    try (ResultSet rs = statement("SELECT key, value FROM settings").executeQuery()) {
      Map<String, String> out = new HashMap<>();
      while (rs.next()) {
        out.put(rs.getString(1), rs.getString(2));
      }
      return out;
    } catch (SQLException e) {
      throw failure("read settings", e);
    }
  }

  /** Stores a setting, replacing its earlier value; a null value removes it. */
  @Override
  public void saveSetting(String key, String value) {
    String sql = value == null ? "DELETE FROM settings WHERE key = ?" : "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)";
    write("save setting " + key, () -> {
      PreparedStatement s = statement(sql);
      s.setString(1, key);
      if (value != null) {
        s.setString(2, value);
      }
      s.executeUpdate();
      return null;
    });
  }

  /** The stored download whose final file is {@code target}, if any. */
  @Override
  public synchronized Optional<DownloadRecord> findByTarget(Path target) {
    return query("SELECT " + RECORD + " FROM downloads WHERE target = ?", target.toAbsolutePath().toString())
        .stream().findFirst();
  }

  /** Downloads of {@code url} that have not completed, newest first. */
  @Override
  public synchronized List<DownloadRecord> findUnfinished(String url) {
    return query(UNFINISHED, url);
  }

  /** The stored download with this id, if any. */
  @Override
  public synchronized Optional<DownloadRecord> find(long id) {
    try {
      PreparedStatement s = statement("SELECT " + RECORD + " FROM downloads WHERE id = ?");
      s.setLong(1, id);
      return read(s).stream().findFirst();
    } catch (SQLException e) {
      throw failure("read download " + id, e);
    }
  }

  /** Every stored download, oldest first. */
  @Override
  public synchronized List<DownloadRecord> list() {
    try {
      PreparedStatement s = statement("SELECT " + RECORD + " FROM downloads ORDER BY id");
      return read(s);
    } catch (SQLException e) {
      throw failure("list downloads", e);
    }
  }

  /**
   * Records a new download to {@code target}, replacing any earlier record for the same target
   * (and its segments) in the same transaction. Returns the new id.
   */
  @Override
  public long create(String url, Path target, RemoteIdentity remote, List<SegmentRecord> segments) {
    return write("create download for " + target, () -> {
      long now = System.currentTimeMillis();
      long id;
      // target is unique: REPLACE deletes an earlier record of it, and with it (foreign keys are
      // on) its segments and block sums, in the same statement
      PreparedStatement s = statement("INSERT OR REPLACE INTO downloads"
          + " (url, target, final_url, length, etag, last_modified, ranges, status, created_ms, updated_ms)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id");
      s.setString(1, url);
      s.setString(2, target.toAbsolutePath().toString());
      bindRemote(s, 3, remote);
      s.setString(8, DownloadStatus.ACTIVE.name());
      s.setLong(9, now);
      s.setLong(10, now);
      id = insertedId(s);
      // a new id has no segments yet
      insertSegments(id, segments);
      return id;
    });
  }

  /** The stored segments of a download, by start offset. */
  @Override
  public synchronized List<SegmentRecord> segments(long id) {
    try {
      PreparedStatement s = statement(
          "SELECT start, end, done FROM segments WHERE download_id = ? ORDER BY start");
      s.setLong(1, id);
      List<SegmentRecord> out = new ArrayList<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          out.add(new SegmentRecord(rs.getLong(1), rs.getLong(2), rs.getLong(3)));
        }
      }
      return out;
    } catch (SQLException e) {
      throw failure("read segments of download " + id, e);
    }
  }

  /**
   * Replaces the segments of a download with {@code segments} in one transaction. The caller must
   * have forced every byte these records call done.
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
    write("checkpoint download " + id, () -> {
      writeProgress(id, segments, newBlockSums);
      touch(id);
      return null;
    });
  }

  /**
   * The last checkpoint of a download whose every byte is done and forced: records the progress
   * and the block sums, and marks it {@link DownloadStatus#COMPLETED}, in one transaction. The
   * caller renames its part file after this (a crash in between leaves a complete record with its
   * part file, which the engine renames on the next run).
   */
  @Override
  public void complete(long id, List<SegmentRecord> segments, Map<Integer, Integer> newBlockSums) {
    write("complete download " + id, () -> {
      writeProgress(id, segments, newBlockSums);
      setStatus(id, DownloadStatus.COMPLETED, null);
      return null;
    });
  }

  private void writeProgress(long id, List<SegmentRecord> segments, Map<Integer, Integer> blockSums) throws SQLException {
    writeSegments(id, segments);
    if (!blockSums.isEmpty()) {
      PreparedStatement s = statement(
          "INSERT OR REPLACE INTO blocks (download_id, idx, crc) VALUES (?, ?, ?)");
      for (Map.Entry<Integer, Integer> b : blockSums.entrySet()) {
        s.setLong(1, id);
        s.setInt(2, b.getKey());
        s.setInt(3, b.getValue());
        s.addBatch();
      }
      s.executeBatch();
    }
  }

  /** The recorded CRC32C of each finished block of a download, by block index. */
  @Override
  public synchronized Map<Integer, Integer> blockSums(long id) {
    try {
      PreparedStatement s = statement("SELECT idx, crc FROM blocks WHERE download_id = ?");
      s.setLong(1, id);
      Map<Integer, Integer> out = new HashMap<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          out.put(rs.getInt(1), rs.getInt(2));
        }
      }
      return out;
    } catch (SQLException e) {
      throw failure("read block sums of download " + id, e);
    }
  }

  /**
   * Replaces a download's progress after its bytes on disk were found damaged: the segments as
   * trimmed, and only the block sums still valid, in one transaction.
   */
  @Override
  public void repair(long id, List<SegmentRecord> segments, Map<Integer, Integer> validSums) {
    write("repair download " + id, () -> {
      PreparedStatement d = statement("DELETE FROM blocks WHERE download_id = ?");
      d.setLong(1, id);
      d.executeUpdate();
      writeProgress(id, segments, validSums);
      touch(id);
      return null;
    });
  }

  /** What was learned about {@code host} ({@code host:port}), if anything. */
  @Override
  public synchronized Optional<HostMemory> host(String host) {
    try {
      PreparedStatement s = statement(
          "SELECT limit_conns, good_conns, bytes_per_sec, updated_ms FROM hosts WHERE host = ?");
      s.setString(1, host);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next()
            ? Optional.of(new HostMemory(host, rs.getInt(1), rs.getInt(2), rs.getDouble(3), rs.getLong(4)))
            : Optional.empty();
      }
    } catch (SQLException e) {
      throw failure("read host " + host, e);
    }
  }

  /** Records what a download learned about a host, replacing what was known. */
  @Override
  public void remember(HostMemory m) {
    write("record host " + m.host(), () -> {
      PreparedStatement s = statement(
          "INSERT OR REPLACE INTO hosts (host, limit_conns, good_conns, bytes_per_sec, updated_ms) VALUES (?, ?, ?, ?, ?)");
      s.setString(1, m.host());
      s.setInt(2, m.limit());
      s.setInt(3, m.connections());
      s.setDouble(4, m.bytesPerSecond());
      s.setLong(5, m.updatedMillis());
      s.executeUpdate();
      return null;
    });
  }

  /** What each HTTP version delivered from {@code host} ({@code host:port}), if anything was measured. */
  @Override
  public synchronized List<ProtocolMemory> protocols(String host) {
    try {
      PreparedStatement s = statement(
          "SELECT protocol, offered, bytes_per_sec, updated_ms FROM host_protocols WHERE host = ? ORDER BY protocol");
      s.setString(1, host);
      List<ProtocolMemory> all = new ArrayList<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          all.add(new ProtocolMemory(host, rs.getString(1), rs.getInt(2) != 0, rs.getDouble(3), rs.getLong(4)));
        }
      }
      return all;
    } catch (SQLException e) {
      throw failure("read the protocols of host " + host, e);
    }
  }

  /** Records what a download learned about one HTTP version of a host, replacing what was known of it. */
  @Override
  public void remember(ProtocolMemory m) {
    write("record protocol " + m.protocol() + " of host " + m.host(), () -> {
      PreparedStatement s = statement("INSERT OR REPLACE INTO host_protocols"
          + " (host, protocol, offered, bytes_per_sec, updated_ms) VALUES (?, ?, ?, ?, ?)");
      s.setString(1, m.host());
      s.setString(2, m.protocol());
      s.setInt(3, m.offered() ? 1 : 0);
      s.setDouble(4, m.bytesPerSecond());
      s.setLong(5, m.updatedMillis());
      s.executeUpdate();
      return null;
    });
  }

  /** Sets the status (and error text, null to clear) of a download. */
  @Override
  public void markStatus(long id, DownloadStatus status, String error) {
    write("update download " + id, () -> {
      setStatus(id, status, error);
      return null;
    });
  }

  private void setStatus(long id, DownloadStatus status, String error) throws SQLException {
    PreparedStatement s = statement("UPDATE downloads SET status = ?, error = ?, updated_ms = ? WHERE id = ?");
    s.setString(1, status.name());
    s.setString(2, error);
    s.setLong(3, System.currentTimeMillis());
    s.setLong(4, id);
    s.executeUpdate();
  }

  /**
   * Moves a download to a new URL that was shown to serve the same file (a refreshed link): its
   * segments and block sums stay; the URL and what the new server says about the file replace the old.
   */
  @Override
  public void changeUrl(long id, String url, RemoteIdentity remote) {
    write("change the URL of download " + id, () -> {
      PreparedStatement s = statement("UPDATE downloads SET url = ?, final_url = ?, length = ?, etag = ?,"
          + " last_modified = ?, ranges = ?, updated_ms = ? WHERE id = ?");
      s.setString(1, url);
      bindRemote(s, 2, remote);
      s.setLong(7, System.currentTimeMillis());
      s.setLong(8, id);
      s.executeUpdate();
      return null;
    });
  }

  /** Forgets a download and its segments. */
  @Override
  public void delete(long id) {
    write("delete download " + id, () -> {
      PreparedStatement s = statement("DELETE FROM downloads WHERE id = ?");
      s.setLong(1, id);
      s.executeUpdate();
      return null;
    });
  }

  @Override
  public synchronized void close() {
    closeQuietly(connection);
  }

  private void writeSegments(long id, List<SegmentRecord> segments) throws SQLException {
    PreparedStatement d = statement("DELETE FROM segments WHERE download_id = ?");
    d.setLong(1, id);
    d.executeUpdate();
    insertSegments(id, segments);
  }

  private void insertSegments(long id, List<SegmentRecord> segments) throws SQLException {
    PreparedStatement s = statement(
        "INSERT INTO segments (download_id, start, end, done) VALUES (?, ?, ?, ?)");
    for (SegmentRecord r : segments) {
      s.setLong(1, id);
      s.setLong(2, r.start());
      s.setLong(3, r.end());
      s.setLong(4, r.done());
      s.addBatch();
    }
    s.executeBatch();
  }

  /** Runs an INSERT ... RETURNING id and returns the id. */
  static long insertedId(PreparedStatement s) throws SQLException {
    try (ResultSet rs = s.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private void touch(long id) throws SQLException {
    PreparedStatement s = statement("UPDATE downloads SET updated_ms = ? WHERE id = ?");
    s.setLong(1, System.currentTimeMillis());
    s.setLong(2, id);
    s.executeUpdate();
  }

  private static void bindRemote(PreparedStatement s, int from, RemoteIdentity r) throws SQLException {
    s.setString(from, r.finalUrl());
    s.setLong(from + 1, r.length());
    setNullable(s, from + 2, r.etag());
    setNullable(s, from + 3, r.lastModified());
    s.setInt(from + 4, r.ranges() ? 1 : 0);
  }

  static void setNullable(PreparedStatement s, int index, String value) throws SQLException {
    if (value == null) {
      s.setNull(index, Types.VARCHAR);
    } else {
      s.setString(index, value);
    }
  }

  private List<DownloadRecord> query(String sql, String arg) {
    try {
      PreparedStatement s = statement(sql);
      s.setString(1, arg);
      return read(s);
    } catch (SQLException e) {
      throw failure("read downloads", e);
    }
  }

  private static List<DownloadRecord> read(PreparedStatement s) throws SQLException {
    List<DownloadRecord> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        RemoteIdentity remote = new RemoteIdentity(
            rs.getString(4), rs.getLong(5), rs.getString(6), rs.getString(7), rs.getInt(8) != 0);
        out.add(new DownloadRecord(rs.getLong(1), rs.getString(2), Path.of(rs.getString(3)), remote,
            DownloadStatus.valueOf(rs.getString(9)), rs.getString(10)));
      }
    }
    return out;
  }

  /**
   * The prepared statement for {@code sql}, compiled on first use and reused. Callers hold this
   * store's lock, set every parameter, close the result sets they open and never the statement.
   */
  PreparedStatement statement(String sql) throws SQLException {
    PreparedStatement s = statements.get(sql);
    if (s == null) {
      s = connection.prepareStatement(sql);
      statements.put(sql, s);
    }
    // a batch that failed half-way must not leak into the next use
    s.clearBatch();
    return s;
  }

  /**
   * Runs {@code work} in a transaction, shared with the writes of other threads that come at the
   * same time ({@link GroupCommit}), and returns its result once committed. {@code work} runs
   * under this store's lock; callers need not hold it.
   */
  <T> T write(String what, GroupCommit.Work<T> work) {
    return writes.run(what, work);
  }

  StoreException failure(String what, SQLException e) {
    return new StoreException("state database " + file + ": cannot " + what + ": " + describe(e), e);
  }

  private static String describe(SQLException e) {
    String m = e.getMessage();
    if (busy(e)) {
      return "it is locked by another process";
    }
    if (m != null && m.contains("SQLITE_NOTADB")) {
      return "the file is not a SQLite database (corrupted or not Braid's)";
    }
    if (m != null && m.contains("SQLITE_CORRUPT")) {
      return "the database is corrupted";
    }
    return m;
  }

  private static void closeQuietly(Connection c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (SQLException ignored) {
      // closing is best effort: the data was committed or rolled back before
    }
  }
}
