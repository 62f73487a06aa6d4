package dev.braid.store.postgres;

import dev.braid.store.ChangeMark;
import dev.braid.store.DownloadState;
import dev.braid.store.EntryProgress;
import dev.braid.store.EntryRetry;
import dev.braid.store.NewEntry;
import dev.braid.store.OptionsText;
import dev.braid.store.PageQuery;
import dev.braid.store.QueueCensus;
import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;
import dev.braid.store.StoreException;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The shared queue on PostgreSQL. Claims are leases ({@link QueueLeases}): held until their end
 * on the server's clock, renewed by each heartbeat of their owner, taken over once lapsed.
 *
 * <p>The change feed numbers changes by transaction id ({@code xid8}, set by a trigger on every
 * insert and update, and on removal into {@code queue_removed}). A look's latest change is one
 * below the oldest transaction still running anywhere ({@code pg_snapshot_xmin}): every change
 * numbered up to it has committed or rolled back, so a range read up to it misses nothing that
 * commits later, which numbers taken from a sequence (in the order transactions began, not
 * committed) would.
 *
 * <p>A worker that cannot renew its leases (the server is gone from its view) stops driving its
 * entries before their leases can lapse: once two thirds of a lease have passed since its last
 * renewal, its heartbeat answers that it holds nothing (see {@link #heartbeat}), so the engine
 * pauses those runs, and another worker that takes them over is the only one driving them.
 */
final class PostgresQueue implements QueueStore {
  private static final String BY_ID = "SELECT " + QueueRows.ENTRY + " FROM queue WHERE id = ?";
  private static final String MARK =
      "SELECT coalesce((SELECT max(id) FROM queue), 0), pg_snapshot_xmin(pg_current_snapshot())::text::bigint - 1";
  private static final String CHANGED = "SELECT " + QueueRows.ENTRY + " FROM queue"
      + " WHERE changed_xid > ?::text::xid8 AND changed_xid <= ?::text::xid8 ORDER BY changed_xid, id";
  private static final String REMOVED = "SELECT id FROM queue_removed"
      + " WHERE changed_xid > ?::text::xid8 AND changed_xid <= ?::text::xid8 ORDER BY changed_xid, id";
  /**
   * Entries that want to run and that nobody else holds: queued ones (one claimed at submission
   * by a live submitter stays in the list, as in the SQLite store, and its start is refused),
   * and active ones whose lease lapsed. Active entries of live workers, most of a fleet's, are
   * left out: every worker would otherwise page past them on each look. So are entries waiting
   * out an outage until their time (this machine's clock, as the engine wrote it).
   */
  private static final String RUNNABLE = "SELECT id FROM queue WHERE state IN ('QUEUED', 'ACTIVE')"
      + " AND (state = 'QUEUED' OR " + QueueLeases.FREE + ") AND retry_at <= ? ORDER BY priority DESC, id LIMIT ? OFFSET ?";

  private final PostgresStore store;
  private final RoleConnection connection;
  private final PostgresHeaders headers;
  private final long leaseMillis;
  /** The latest change of the previous {@link #mark}; -1 before the first. Guarded by this. */
  private long lastMark = -1;
  /** When a heartbeat last renewed this process's leases (System.nanoTime); 0 before the first. */
  private volatile long renewedNanos;

  PostgresQueue(PostgresStore store, RoleConnection connection, long leaseMillis) {
    this.store = store;
    this.connection = connection;
    this.headers = new PostgresHeaders(store, connection);
    this.leaseMillis = leaseMillis;
  }

  @Override
  public List<QueueEntry> addAll(List<NewEntry> entries) {
    long now = System.currentTimeMillis();
    String what = entries.size() == 1 ? "queue " + entries.get(0).urls().get(0) : "queue " + entries.size() + " downloads";
    List<Long> ids = store.call(connection, what, c -> {
      List<Long> out = new ArrayList<>();
      try (PreparedStatement s = c.prepareStatement("INSERT INTO queue (urls, file, directory, options, priority, state,"
          + " length, done, owner, lease_until, heartbeat_ms, created_ms, updated_ms)"
          + " VALUES (?, ?, ?, ?, ?, ?, -1, 0, ?, CASE WHEN ?::text IS NULL THEN NULL ELSE " + QueueLeases.LEASE + " END,"
          + " ?, ?, ?) RETURNING id")) {
        for (int i = 0; i < entries.size(); i++) {
          NewEntry e = entries.get(i);
          QueueRows.bind(s, String.join("\n", e.urls()), e.file(), e.directory(), OptionsText.encode(e.options()), e.priority(), e.state(),
              e.owner(), e.owner(), leaseMillis, now, now, now);
          long id = QueueRows.ids(s).get(0);
          if (!e.headers().isEmpty()) {
            PostgresHeaders.write(c, id, e.headers());
          }
          out.add(id);
        }
      }
      return out;
    });
    List<QueueEntry> added = new ArrayList<>();
    for (int i = 0; i < entries.size(); i++) {
      added.add(entries.get(i).asWritten(ids.get(i), now));
    }
    return added;
  }

  @Override
  public Optional<QueueEntry> get(long id) {
    return select("read queue entry " + id, BY_ID, id).stream().findFirst();
  }

  @Override
  public ChangeMark mark() {
    return store.call(connection, "read the queue's change feed", c -> {
      try (PreparedStatement s = c.prepareStatement(MARK); ResultSet rs = s.executeQuery()) {
        rs.next();
        long latest = rs.getLong(2);
        synchronized (this) {
          // the server cannot say whose commits moved the horizon: any move may be another worker's
          boolean moved = latest != lastMark;
          lastMark = latest;
          return new ChangeMark(rs.getLong(1), latest, moved);
        }
      }
    });
  }

  @Override
  public List<QueueEntry> changedBetween(long after, long upTo) {
    return select("read the queue's changes", CHANGED, Long.toString(after), Long.toString(upTo));
  }

  @Override
  public List<Long> removedBetween(long after, long upTo) {
    return store.call(connection, "read the queue's removals", c -> {
      try (PreparedStatement s = c.prepareStatement(REMOVED)) {
        QueueRows.bind(s, Long.toString(after), Long.toString(upTo));
        return QueueRows.ids(s);
      }
    });
  }

  /** Both reads in one REPEATABLE READ transaction: under READ COMMITTED each statement has its own snapshot. */
  @Override
  public QueueCensus census() {
    return store.call(connection, "count the queue", c -> {
      try (PreparedStatement isolation = c.prepareStatement("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")) {
        isolation.execute();
      }
      Map<DownloadState, Long> counts = new EnumMap<>(DownloadState.class);
      try (PreparedStatement s = c.prepareStatement("SELECT state, count(*) FROM queue GROUP BY state");
          ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          counts.put(DownloadState.valueOf(rs.getString(1)), rs.getLong(2));
        }
      }
      try (PreparedStatement s = c.prepareStatement("SELECT " + QueueRows.ENTRY + " FROM queue WHERE state = ? ORDER BY id")) {
        QueueRows.bind(s, DownloadState.ACTIVE);
        return new QueueCensus(counts, QueueRows.read(s));
      }
    });
  }

  @Override
  public List<QueueEntry> all() {
    return select("read the queue", "SELECT " + QueueRows.ENTRY + " FROM queue ORDER BY id");
  }
  @Override
  public List<QueueEntry> page(Set<DownloadState> states, boolean startOrder, long offset, int limit) {
    Optional<PageQuery> q = PageQuery.of(states, startOrder, offset, limit);
    if (q.isEmpty()) {
      return List.of();
    }
    return select("read a page of the queue", "SELECT " + QueueRows.ENTRY + " FROM queue WHERE state IN (" + q.get().states()
        + ") ORDER BY " + q.get().orderBy() + " LIMIT ? OFFSET ?", limit, q.get().offset());
  }


  @Override
  public List<Long> runnable(int limit, int offset) {
    return store.call(connection, "read the runnable entries", c -> {
      try (PreparedStatement s = c.prepareStatement(RUNNABLE)) {
        QueueRows.bind(s, System.currentTimeMillis(), limit, offset);
        return QueueRows.ids(s);
      }
    });
  }

  @Override
  public List<QueueEntry> matching(String url, Path file, Path directory) {
    List<QueueEntry> out = new ArrayList<>();
    for (QueueEntry e : select("read the queue", "SELECT " + QueueRows.ENTRY + " FROM queue WHERE first_url = ? ORDER BY id DESC", url)) {
      if (e.url().equals(url) && e.directory().equals(directory) && (file == null ? e.file() == null : file.equals(e.file()))) {
        out.add(e);
      }
    }
    return out;
  }

  @Override
  public Optional<QueueEntry> unfinishedWithFile(Path file) {
    return select("read the queue", "SELECT " + QueueRows.ENTRY
        + " FROM queue WHERE file = ? AND state <> 'COMPLETED' ORDER BY id DESC LIMIT 1", file).stream().findFirst();
  }

  /**
   * For what users are shown: an owner whose last heartbeat is younger than a lease. The claims
   * themselves go by the lease's end on the server's clock.
   */
  @Override
  public boolean held(QueueEntry e) {
    return e.owner() != null && System.currentTimeMillis() - e.heartbeatMillis() < leaseMillis;
  }

  @Override
  public boolean claim(long id, String owner) {
    return store.call(connection, "claim queue entry " + id, c -> QueueLeases.claim(c, id, owner, leaseMillis));
  }

  @Override
  public Optional<QueueEntry> start(long id, String owner) {
    return store.call(connection, "start queue entry " + id, c -> QueueLeases.start(c, id, owner, leaseMillis));
  }

  @Override
  public void release(long id, String owner) {
    update("release queue entry " + id, "UPDATE queue SET owner = NULL, lease_until = NULL WHERE id = ? AND owner = ?", id, owner);
  }

  @Override
  public void setState(long id, DownloadState state, String error, String errorKind) {
    update("update queue entry " + id, "UPDATE queue SET state = ?, error = ?, error_kind = ?, updated_ms = ?,"
        + " retry_at = 0, retry_count = 0, retry_since = 0 WHERE id = ?", state, error, errorKind, System.currentTimeMillis(), id);
  }

  @Override
  public void requeue(long id, List<String> urls, Map<String, String> options, int priority, String owner, DownloadState state) {
    long now = System.currentTimeMillis();
    update("queue entry " + id + " again", "UPDATE queue SET urls = ?, options = ?, priority = ?, state = ?,"
        + " error = NULL, error_kind = NULL, retry_at = 0, retry_count = 0, retry_since = 0, completed_by = NULL,"
        + " completed_at = NULL, owner = ?, lease_until = "
        + QueueLeases.LEASE + ", heartbeat_ms = ?, updated_ms = ? WHERE id = ?",
        String.join("\n", urls), OptionsText.encode(options), priority, state.name(), owner, leaseMillis, now, now, id);
  }

  @Override
  public void changeUrls(long id, List<String> urls, Path file) {
    update("change the URLs of queue entry " + id, "UPDATE queue SET urls = ?, file = ? WHERE id = ?", String.join("\n", urls), file, id);
  }

  @Override
  public void updateUrls(long id, List<String> urls) {
    update("change the URLs of queue entry " + id, "UPDATE queue SET urls = ? WHERE id = ?", String.join("\n", urls), id);
  }

  @Override
  public void updatePriority(long id, int priority) {
    update("change the priority of queue entry " + id, "UPDATE queue SET priority = ? WHERE id = ?", priority, id);
  }

  @Override
  public void updateOptions(long id, Map<String, String> options) {
    update("change the options of queue entry " + id, "UPDATE queue SET options = ? WHERE id = ?", OptionsText.encode(options), id);
  }

  /**
   * Records progress and renews every lease of {@code owner}. When the server cannot be reached
   * and two thirds of a lease have passed since the last renewal, answers that {@code owner}
   * holds nothing: the engine then stops those runs (as it does for entries taken from it)
   * before another worker may take them over.
   */
  @Override
  public Map<Long, DownloadState> heartbeat(String owner, List<EntryProgress> progress) {
    long sent = System.nanoTime();
    try {
      Map<Long, DownloadState> held = store.call(connection, "record queue progress",
          c -> QueueLeases.renew(c, owner, progress, leaseMillis));
      renewedNanos = sent;
      return held;
    } catch (StoreException e) {
      if (renewedNanos != 0 && sent - renewedNanos > leaseMillis * 2 / 3 * 1_000_000) {
        return Map.of();
      }
      throw e;
    }
  }

  @Override
  public Optional<QueueEntry> finish(String owner, EntryProgress last, DownloadState state, String error, String errorKind,
      EntryRetry retry) {
    return store.call(connection, "record the end of queue entry " + last.id(), c -> {
      Optional<QueueEntry> ended = QueueLeases.finish(c, owner, last, state, error, errorKind, retry);
      if (ended.isPresent()) {
        // only a completion recorded here: a late end of a worker whose entry another took over
        // must leave that worker's headers
        if (state == DownloadState.COMPLETED) {
          PostgresHeaders.write(c, last.id(), Map.of());
        }
        return ended;
      }
      try (PreparedStatement s = c.prepareStatement(BY_ID)) {
        QueueRows.bind(s, last.id());
        return QueueRows.read(s).stream().findFirst();
      }
    });
  }

  /** In the {@code queue_headers} table, which no read of entries touches ({@link PostgresHeaders}). */
  @Override
  public Map<String, String> headers(long id) {
    return headers.get(id);
  }

  @Override
  public void setHeaders(long id, Map<String, String> headers) {
    this.headers.set(id, headers);
  }

  @Override
  public void remove(long id) {
    update("remove queue entry " + id, "DELETE FROM queue WHERE id = ?", id);
  }

  private List<QueueEntry> select(String what, String sql, Object... args) {
    return store.call(connection, what, c -> {
      try (PreparedStatement s = c.prepareStatement(sql)) {
        QueueRows.bind(s, args);
        return QueueRows.read(s);
      }
    });
  }

  private void update(String what, String sql, Object... args) {
    store.call(connection, what, c -> {
      try (PreparedStatement s = c.prepareStatement(sql)) {
        QueueRows.bind(s, args);
        s.executeUpdate();
      }
      return null;
    });
  }
}
