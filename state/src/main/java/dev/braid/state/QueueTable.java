package dev.braid.state;

import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import dev.braid.store.ChangeMark;
import dev.braid.store.EntryProgress;
import dev.braid.store.EntryState;
import dev.braid.store.OptionsText;
import dev.braid.store.PageQuery;
import dev.braid.store.ProcessOwner;
import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;

/**
 * The persistent download queue: what was submitted, in which order, where it stands and which
 * process drives it. Several processes may share it: an entry is driven only by the process that
 * {@linkplain #claim claimed} it, and a claim held by a process that is gone can be taken over.
 * Every method runs under the store's lock, on its one connection.
 *
 * <p>A claim is held while {@link ProcessOwner#holds} says its owner runs: at once for a process
 * of this machine (its pid and start time), within its last heartbeat's 30 s for another's.
 */
public final class QueueTable implements QueueStore {
  /** The first line of {@code urls} (the URL itself, without mirrors); indexed as written here. */
  static final String FIRST_URL = "substr(urls, 1, instr(urls || char(10), char(10)) - 1)";
  /**
   * The columns of an entry, in the order {@link #select(PreparedStatement)} reads them: by
   * position, as the driver otherwise looks each name up in every result set anew.
   */
  static final String ENTRY =
      "id, urls, file, directory, options, priority, state, error, error_kind, target, length, done, owner, heartbeat_ms";
  static final String BY_ID = "SELECT " + ENTRY + " FROM queue WHERE id = ?";
  /** Entries of one URL, newest first, through the index on {@link #FIRST_URL}. */
  static final String MATCHING = "SELECT " + ENTRY + " FROM queue WHERE " + FIRST_URL + " = ? ORDER BY id DESC";
  static final String UNFINISHED_WITH_FILE =
      "SELECT " + ENTRY + " FROM queue WHERE file = ? AND state <> 'COMPLETED' ORDER BY id DESC LIMIT 1";
  static final String RUNNABLE =
      "SELECT id FROM queue WHERE state IN ('QUEUED', 'ACTIVE') ORDER BY priority DESC, id LIMIT ? OFFSET ?";
  static final String COUNT_BY_STATE = "SELECT state, count(*) FROM queue GROUP BY state";
  /** The entries an owner holds, read by every heartbeat. */
  static final String CHANGED = "SELECT " + ENTRY + " FROM queue WHERE seq > ? AND seq <= ? ORDER BY seq";
  static final String REMOVED = "SELECT id FROM queue_removed WHERE seq > ? AND seq <= ? ORDER BY seq";
  static final String OWNED = "SELECT id, state FROM queue WHERE owner = ?";
  /** The progress of an entry, recorded only while {@code owner} still holds it. */
  private static final String PROGRESS =
      "UPDATE queue SET heartbeat_ms = ?, target = COALESCE(?, target), length = ?, done = ? WHERE id = ? AND owner = ?";

  /**
   * The end of an owner's run of an entry ({@link #finish}), one statement: each update of a row is
   * numbered again by a trigger (schema v8), and a batch of small files ends a download every few
   * milliseconds. ?1 owner, ?2 now, ?3 target, ?4 length, ?5 done, ?6 state (null: left as is),
   * ?7 error, ?8 its kind, ?9 id. Every right-hand side reads the row as it was.
   */
  private static final String FINISH = "UPDATE queue SET"
      + " heartbeat_ms = CASE WHEN owner = ?1 THEN ?2 ELSE heartbeat_ms END,"
      + " target = CASE WHEN owner = ?1 THEN coalesce(?3, target) ELSE target END,"
      + " length = CASE WHEN owner = ?1 THEN ?4 ELSE length END,"
      + " done = CASE WHEN owner = ?1 THEN ?5 ELSE done END,"
      + " state = coalesce(?6, state),"
      + " error = CASE WHEN ?6 IS NULL THEN error ELSE ?7 END,"
      + " error_kind = CASE WHEN ?6 IS NULL THEN error_kind ELSE ?8 END,"
      + " updated_ms = CASE WHEN ?6 IS NULL THEN updated_ms ELSE ?2 END,"
      + " owner = CASE WHEN owner = ?1 THEN NULL ELSE owner END"
      + " WHERE id = ?9 RETURNING " + ENTRY;

  /** {@link #start} of an entry that may run and that {@code ?1} holds: ?1 owner, ?2 now, ?3 id. */
  private static final String START_OURS = "UPDATE queue SET heartbeat_ms = ?2, updated_ms = ?2, state = 'ACTIVE',"
      + " error = NULL, error_kind = NULL WHERE id = ?3 AND owner = ?1 AND state IN ('QUEUED', 'ACTIVE')"
      + " RETURNING " + ENTRY;

  private final Store store;

  QueueTable(Store store) {
    this.store = store;
  }

  /**
   * Adds an entry in state {@link EntryState#QUEUED}, claimed by {@code owner} (the submitting
   * process), so that no other process running the queue takes it while its submitter lives;
   * returns it.
   */
  public QueueEntry add(List<String> urls, Path file, Path directory, Map<String, String> options, int priority,
      String owner) {
    return add(urls, file, directory, options, priority, owner, EntryState.QUEUED);
  }

  @Override
  public QueueEntry add(List<String> urls, Path file, Path directory, Map<String, String> options, int priority,
      String owner, EntryState state) {
    String encoded = OptionsText.encode(options);
    long now = System.currentTimeMillis();
    long id = store.write("queue " + urls.get(0), () -> {
      PreparedStatement s = store.statement(
        "INSERT INTO queue (urls, file, directory, options, priority, state, length, done, owner, heartbeat_ms,"
            + " created_ms, updated_ms) VALUES (?, ?, ?, ?, ?, ?, -1, 0, ?, ?, ?, ?) RETURNING id");
      s.setString(1, String.join("\n", urls));
      Store.setNullable(s, 2, file == null ? null : file.toString());
      s.setString(3, directory.toString());
      s.setString(4, encoded);
      s.setInt(5, priority);
      s.setString(6, state.name());
      s.setString(7, owner);
      s.setLong(8, now);
      s.setLong(9, now);
      s.setLong(10, now);
      return Store.insertedId(s);
    });
    // the entry as written, not read back: a batch adds one every few milliseconds
    return new QueueEntry(id, List.copyOf(urls), file, directory, OptionsText.decode(encoded), priority, state, null, null,
        null, -1, 0, owner, now);
  }

  @Override
  public Optional<QueueEntry> get(long id) {
    synchronized (store) {
      return select(BY_ID, id).stream().findFirst();
    }
  }

  /** The highest id given so far, 0 for an empty queue. */
  public long newestId() {
    return number("SELECT coalesce(max(id), 0) FROM queue");
  }

  /**
   * The number of the latest change to the queue: each insert, update or removal of an entry
   * takes the next one (schema v8), in commit order across processes. 0 for an empty queue.
   */
  public long latestChange() {
    return number("SELECT max(coalesce((SELECT max(seq) FROM queue), 0), coalesce((SELECT max(seq) FROM queue_removed), 0))");
  }

  /**
   * Whether another connection committed since the last look ({@link Store#changedByOthers}),
   * the newest id and the latest change, in one read transaction: all three from one snapshot.
   * Read one by one, a commit of another process landing between them was either announced
   * without being read, or read under numbers the next look then took as this process's own.
   */
  @Override
  public ChangeMark mark() {
    synchronized (store) {
      try {
        store.statement("BEGIN DEFERRED").execute();
        try {
          boolean others = store.changedByOthers();
          ChangeMark m = new ChangeMark(newestId(), latestChange(), others);
          store.statement("COMMIT").execute();
          return m;
        } catch (RuntimeException | SQLException e) {
          store.statement("ROLLBACK").execute();
          throw e;
        }
      } catch (SQLException e) {
        throw store.failure("read the queue's change feed", e);
      }
    }
  }

  private long number(String sql) {
    synchronized (store) {
      try (ResultSet rs = store.statement(sql).executeQuery()) {
        return rs.getLong(1);
      } catch (SQLException e) {
        throw store.failure("read the queue", e);
      }
    }
  }

  /**
   * The entries as they stand whose latest change is after {@code after} and at most
   * {@code upTo} (see {@link #latestChange}), oldest change first. An entry changed again since
   * {@code upTo} is left for the next look, under its new number.
   */
  @Override
  public List<QueueEntry> changedBetween(long after, long upTo) {
    synchronized (store) {
      return select(CHANGED, after, upTo);
    }
  }

  /** The ids of the entries removed after change {@code after} and at most {@code upTo}, oldest first. */
  @Override
  public List<Long> removedBetween(long after, long upTo) {
    return ids(REMOVED, after, upTo);
  }

  /** How many entries are in each state (states without any are absent), counted from the state index. */
  @Override
  public Map<EntryState, Long> countByState() {
    synchronized (store) {
      try (ResultSet rs = store.statement(COUNT_BY_STATE).executeQuery()) {
        Map<EntryState, Long> out = new EnumMap<>(EntryState.class);
        while (rs.next()) {
          out.put(EntryState.valueOf(rs.getString(1)), rs.getLong(2));
        }
        return out;
      } catch (SQLException e) {
        throw store.failure("count the queue", e);
      }
    }
  }

  /** The entries in {@code state}, oldest first. */
  @Override
  public List<QueueEntry> inState(EntryState state) {
    synchronized (store) {
      return select("SELECT " + ENTRY + " FROM queue WHERE state = ? ORDER BY id", state.name());
    }
  }

  /** Every entry, oldest first. */
  @Override
  public List<QueueEntry> all() {
    synchronized (store) {
      return select("SELECT " + ENTRY + " FROM queue ORDER BY id");
    }
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
  public List<QueueEntry> page(Set<EntryState> states, boolean startOrder, long offset, int limit) {
    Optional<PageQuery> q = PageQuery.of(states, startOrder, offset, limit);
    if (q.isEmpty()) {
      return List.of();
    }
    // oldest first walks the table in id order and stops after the page ("+state" keeps SQLite off the
    // state index, through which it sorted every matching entry first: 0.15 s for 100,000 finished ones)
    String where = (startOrder ? "state" : "+state") + " IN (" + q.get().states() + ")";
    synchronized (store) {
      return select("SELECT " + ENTRY + " FROM queue WHERE " + where + " ORDER BY " + q.get().orderBy() + " LIMIT ? OFFSET ?",
          limit, q.get().offset());
    }
  }

  /**
   * The ids of entries that want to run (queued, or active under an owner that may be gone), in
   * the order they should start: at most {@code limit} of them after skipping {@code offset} (a
   * batch can hold thousands). Ids only, from the index alone: the queue looks at many entries
   * to start one, and decoding each whole was a large part of its work in a batch.
   */
  @Override
  public List<Long> runnable(int limit, int offset) {
    return ids(RUNNABLE, limit, offset);
  }

  /** The first column of each row of {@code sql}: ids, read from an index alone. */
  private List<Long> ids(String sql, Object... args) {
    synchronized (store) {
      try {
        PreparedStatement s = store.statement(sql);
        bind(s, args);
        List<Long> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery()) {
          while (rs.next()) {
            out.add(rs.getLong(1));
          }
        }
        return out;
      } catch (SQLException e) {
        throw store.failure("read the queue", e);
      }
    }
  }

  /** Entries for the same URL and target choice, newest first: a request submitted again continues them. */
  @Override
  public List<QueueEntry> matching(String url, Path file, Path directory) {
    synchronized (store) {
      List<QueueEntry> out = new ArrayList<>();
      for (QueueEntry e : select(MATCHING, url)) {
        if (e.url().equals(url) && e.directory().equals(directory)
            && (file == null ? e.file() == null : file.equals(e.file()))) {
          out.add(e);
        }
      }
      return out;
    }
  }

  /**
   * The newest unfinished entry that writes {@code file} (given with -o), whatever its URL: a
   * request of another URL for the same file continues it (a refreshed link).
   */
  @Override
  public Optional<QueueEntry> unfinishedWithFile(Path file) {
    synchronized (store) {
      return select(UNFINISHED_WITH_FILE, file.toString()).stream().findFirst();
    }
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
    return store.write("claim queue entry " + id, () -> {
      Optional<QueueEntry> e = select(BY_ID, id).stream().findFirst();
      if (e.isEmpty()) {
        return false;
      }
      String holder = e.get().owner();
      if (holder != null && !holder.equals(owner) && held.test(e.get())) {
        return false;
      }
      PreparedStatement s = store.statement("UPDATE queue SET owner = ?, heartbeat_ms = ?, updated_ms = ? WHERE id = ?");
      long now = System.currentTimeMillis();
      s.setString(1, owner);
      s.setLong(2, now);
      s.setLong(3, now);
      s.setLong(4, id);
      s.executeUpdate();
      return true;
    });
  }

  /**
   * Claims a runnable entry for {@code owner} and marks it active, in one transaction (a batch
   * of small files starts one every few milliseconds). Returns the entry as started; empty when
   * it is gone, no longer runnable (its claim, if {@code owner}'s, is given up) or held by a
   * live other owner.
   */
  Optional<QueueEntry> start(long id, String owner, Predicate<QueueEntry> held) {
    return store.write("start queue entry " + id, () -> {
      long now = System.currentTimeMillis();
      // the usual case, one statement: the entry may run and this owner claimed it when it added
      // it (a batch starts one every few milliseconds)
      PreparedStatement ours = store.statement(START_OURS);
      ours.setString(1, owner);
      ours.setLong(2, now);
      ours.setLong(3, id);
      Optional<QueueEntry> started = select(ours).stream().findFirst();
      if (started.isPresent()) {
        return started;
      }
      Optional<QueueEntry> found = select(BY_ID, id).stream().findFirst();
      if (found.isEmpty()) {
        return Optional.<QueueEntry>empty();
      }
      QueueEntry e = found.get();
      boolean mine = owner.equals(e.owner());
      if (e.state() != EntryState.QUEUED && e.state() != EntryState.ACTIVE) {
        if (mine) {
          update("UPDATE queue SET owner = NULL WHERE id = ? AND owner = ?", id, owner);
        }
        return Optional.<QueueEntry>empty();
      }
      if (e.owner() != null && !mine && held.test(e)) {
        return Optional.<QueueEntry>empty();
      }
      update("UPDATE queue SET owner = ?, heartbeat_ms = ?, updated_ms = ?, state = 'ACTIVE', error = NULL, error_kind = NULL"
          + " WHERE id = ?", owner, now, now, id);
      return Optional.of(new QueueEntry(e.id(), e.urls(), e.file(), e.directory(), e.options(), e.priority(),
          EntryState.ACTIVE, null, null, e.target(), e.length(), e.done(), owner, now));
    });
  }

  @Override
  public Optional<QueueEntry> start(long id, String owner) {
    return start(id, owner, this::held);
  }

  /** Gives up {@code owner}'s claim on the entry (no-op if someone else holds it). */
  @Override
  public void release(long id, String owner) {
    write("UPDATE queue SET owner = NULL WHERE id = ? AND owner = ?", id, owner);
  }

  /** Sets the state and error (both null to clear the error) of an entry. */
  @Override
  public void setState(long id, EntryState state, String error, String errorKind) {
    store.write("update queue entry " + id, () -> {
      PreparedStatement s = store.statement(
        "UPDATE queue SET state = ?, error = ?, error_kind = ?, updated_ms = ? WHERE id = ?");
      s.setString(1, state.name());
      Store.setNullable(s, 2, error);
      Store.setNullable(s, 3, errorKind);
      s.setLong(4, System.currentTimeMillis());
      s.setLong(5, id);
      s.executeUpdate();
      return null;
    });
  }

  @Override
  public void requeue(long id, List<String> urls, Map<String, String> options, int priority, String owner, EntryState state) {
    long now = System.currentTimeMillis();
    write("UPDATE queue SET urls = ?, options = ?, priority = ?, state = ?, error = NULL, error_kind = NULL,"
        + " owner = ?, heartbeat_ms = ?, updated_ms = ? WHERE id = ?", String.join("\n", urls), OptionsText.encode(options), priority,
        state.name(), owner, now, now, id);
  }

  /** Replaces the URLs of an entry (a refreshed link) and pins its file, which the old URL may have named. */
  @Override
  public void changeUrls(long id, List<String> urls, Path file) {
    write("UPDATE queue SET urls = ?, file = ? WHERE id = ?", String.join("\n", urls), file.toString(), id);
  }

  /** Replaces an entry's URLs (the first is the main one, the rest mirrors), whoever holds it. */
  @Override
  public void updateUrls(long id, List<String> urls) {
    write("UPDATE queue SET urls = ? WHERE id = ?", String.join("\n", urls), id);
  }

  /** Changes an entry's priority (higher starts first), whoever holds it. */
  @Override
  public void updatePriority(long id, int priority) {
    write("UPDATE queue SET priority = ? WHERE id = ?", priority, id);
  }

  /** Replaces the stored options of an entry (a rate limit changed while it runs, say). */
  @Override
  public void updateOptions(long id, Map<String, String> options) {
    write("UPDATE queue SET options = ? WHERE id = ?", OptionsText.encode(options), id);
  }

  /**
   * Records the progress of the entries {@code owner} drives and returns the state the store
   * holds for each of them now (absent: removed), so the owner sees pauses and removals asked
   * by other processes.
   */
  @Override
  public Map<Long, EntryState> heartbeat(String owner, List<EntryProgress> progress) {
    return store.write("record queue progress", () -> {
      long now = System.currentTimeMillis();
      PreparedStatement update = store.statement(PROGRESS);
      for (EntryProgress p : progress) {
        bindProgress(update, now, p, owner);
        update.addBatch();
      }
      update.executeBatch();
      Map<Long, EntryState> states = new HashMap<>();
      PreparedStatement read = store.statement(OWNED);
      read.setString(1, owner);
      try (ResultSet rs = read.executeQuery()) {
        while (rs.next()) {
          states.put(rs.getLong(1), EntryState.valueOf(rs.getString(2)));
        }
      }
      return states;
    });
  }

  /**
   * Ends {@code owner}'s run of an entry in one transaction: records its last progress, sets its
   * state and error (unless {@code state} is null: a removal left the state to the remover) and
   * gives up the claim. Returns the entry as stored now, if it still exists.
   */
  @Override
  public Optional<QueueEntry> finish(String owner, EntryProgress last, EntryState state, String error, String errorKind) {
    return store.write("record the end of queue entry " + last.id(), () -> {
      PreparedStatement s = store.statement(FINISH);
      s.setString(1, owner);
      s.setLong(2, System.currentTimeMillis());
      Store.setNullable(s, 3, last.target() == null ? null : last.target().toString());
      s.setLong(4, last.length());
      s.setLong(5, last.done());
      Store.setNullable(s, 6, state == null ? null : state.name());
      Store.setNullable(s, 7, error);
      Store.setNullable(s, 8, errorKind);
      s.setLong(9, last.id());
      return select(s).stream().findFirst();
    });
  }

  /** Forgets an entry (the engine's resume record of its file is kept). */
  @Override
  public void remove(long id) {
    write("DELETE FROM queue WHERE id = ?", id);
  }

  private static void bindProgress(PreparedStatement s, long now, EntryProgress p, String owner) throws SQLException {
    s.setLong(1, now);
    Store.setNullable(s, 2, p.target() == null ? null : p.target().toString());
    s.setLong(3, p.length());
    s.setLong(4, p.done());
    s.setLong(5, p.id());
    s.setString(6, owner);
  }

  /** One statement as a write of its own (see {@link Store#write}). */
  private void write(String sql, Object... args) {
    store.write("update the queue", () -> {
      update(sql, args);
      return null;
    });
  }

  /** One statement, inside a write. */
  private void update(String sql, Object... args) throws SQLException {
    PreparedStatement s = store.statement(sql);
    bind(s, args);
    s.executeUpdate();
  }

  private static void bind(PreparedStatement s, Object... args) throws SQLException {
    for (int i = 0; i < args.length; i++) {
      s.setObject(i + 1, args[i]);
    }
  }

  private List<QueueEntry> select(String sql, Object... args) {
    try {
      PreparedStatement s = store.statement(sql);
      bind(s, args);
      return select(s);
    } catch (SQLException e) {
      throw store.failure("read the queue", e);
    }
  }

  /** The entries a bound statement returns (a SELECT or a write's RETURNING, of the {@link #ENTRY} columns). */
  private static List<QueueEntry> select(PreparedStatement s) throws SQLException {
    List<QueueEntry> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        String file = rs.getString(3);
        String target = rs.getString(10);
        out.add(new QueueEntry(rs.getLong(1), Arrays.asList(rs.getString(2).split("\n")),
            file == null ? null : Path.of(file), Path.of(rs.getString(4)), OptionsText.decode(rs.getString(5)),
            rs.getInt(6), EntryState.valueOf(rs.getString(7)), rs.getString(8),
            rs.getString(9), target == null ? null : Path.of(target), rs.getLong(11),
            rs.getLong(12), rs.getString(13), rs.getLong(14)));
      }
    }
    return out;
  }
}
