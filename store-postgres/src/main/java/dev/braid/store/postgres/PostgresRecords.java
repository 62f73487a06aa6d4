package dev.braid.store.postgres;

import dev.braid.store.DownloadRecord;
import dev.braid.store.DownloadState;
import dev.braid.store.RemoteIdentity;
import dev.braid.store.ResumeRecords;
import dev.braid.store.SegmentRecord;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The resume records on PostgreSQL: the SQLite store's tables and rules, shared by the fleet. A
 * worker that takes over an entry finds its download's record by target path; when it shares the
 * download folder (the same path names the same {@code .part}) it resumes from these segments,
 * verified by the block sums as always; on a disk of its own the part file is missing and the
 * engine starts from zero.
 */
final class PostgresRecords implements ResumeRecords {
  private static final String RECORD = "id, url, target, final_url, length, etag, last_modified, ranges, status, error";

  private final PostgresStore store;
  private final RoleConnection connection;

  PostgresRecords(PostgresStore store, RoleConnection connection) {
    this.store = store;
    this.connection = connection;
  }

  @Override
  public Optional<DownloadRecord> findByTarget(Path target) {
    return records("read downloads", "SELECT " + RECORD + " FROM downloads WHERE target = ?",
        target.toAbsolutePath().toString()).stream().findFirst();
  }

  @Override
  public List<DownloadRecord> findUnfinished(String url) {
    return records("read downloads",
        "SELECT " + RECORD + " FROM downloads WHERE url = ? AND status <> 'COMPLETED' ORDER BY id DESC", url);
  }

  @Override
  public Optional<DownloadRecord> find(long id) {
    return records("read download " + id, "SELECT " + RECORD + " FROM downloads WHERE id = ?", id).stream().findFirst();
  }

  @Override
  public List<DownloadRecord> list() {
    return records("list downloads", "SELECT " + RECORD + " FROM downloads ORDER BY id");
  }

  @Override
  public long create(String url, Path target, RemoteIdentity remote, List<SegmentRecord> segments) {
    return store.call(connection, "create download for " + target, c -> {
      long now = System.currentTimeMillis();
      // an earlier record of the same target goes, with its segments and block sums (cascade)
      execute(c, "DELETE FROM downloads WHERE target = ?", target.toAbsolutePath().toString());
      long id;
      try (PreparedStatement s = c.prepareStatement("INSERT INTO downloads (url, target, final_url, length, etag,"
          + " last_modified, ranges, status, created_ms, updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id")) {
        QueueRows.bind(s, url, target.toAbsolutePath().toString(), remote.finalUrl(), remote.length(), remote.etag(),
            remote.lastModified());
        s.setBoolean(7, remote.ranges());
        QueueRows.bindFrom(s, 8, DownloadState.ACTIVE, now, now);
        id = QueueRows.ids(s).get(0);
      }
      insertSegments(c, id, segments);
      return id;
    });
  }

  @Override
  public List<SegmentRecord> segments(long id) {
    return store.call(connection, "read segments of download " + id, c -> {
      try (PreparedStatement s = c.prepareStatement("SELECT start, stop, done FROM segments WHERE download_id = ? ORDER BY start")) {
        s.setLong(1, id);
        List<SegmentRecord> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery()) {
          while (rs.next()) {
            out.add(new SegmentRecord(rs.getLong(1), rs.getLong(2), rs.getLong(3)));
          }
        }
        return out;
      }
    });
  }

  @Override
  public void checkpoint(long id, List<SegmentRecord> segments, Map<Integer, Integer> newBlockSums) {
    store.call(connection, "checkpoint download " + id, c -> {
      writeProgress(c, id, segments, newBlockSums);
      execute(c, "UPDATE downloads SET updated_ms = ? WHERE id = ?", System.currentTimeMillis(), id);
      return null;
    });
  }

  @Override
  public void complete(long id, List<SegmentRecord> segments, Map<Integer, Integer> newBlockSums) {
    store.call(connection, "complete download " + id, c -> {
      writeProgress(c, id, segments, newBlockSums);
      setStatus(c, id, DownloadState.COMPLETED, null);
      return null;
    });
  }

  @Override
  public Map<Integer, Integer> blockSums(long id) {
    return store.call(connection, "read block sums of download " + id, c -> {
      try (PreparedStatement s = c.prepareStatement("SELECT idx, crc FROM blocks WHERE download_id = ?")) {
        s.setLong(1, id);
        Map<Integer, Integer> out = new HashMap<>();
        try (ResultSet rs = s.executeQuery()) {
          while (rs.next()) {
            out.put(rs.getInt(1), (int) rs.getLong(2));
          }
        }
        return out;
      }
    });
  }

  @Override
  public void repair(long id, List<SegmentRecord> segments, Map<Integer, Integer> validSums) {
    store.call(connection, "repair download " + id, c -> {
      execute(c, "DELETE FROM blocks WHERE download_id = ?", id);
      writeProgress(c, id, segments, validSums);
      execute(c, "UPDATE downloads SET updated_ms = ? WHERE id = ?", System.currentTimeMillis(), id);
      return null;
    });
  }

  @Override
  public void markStatus(long id, DownloadState status, String error) {
    store.call(connection, "update download " + id, c -> {
      setStatus(c, id, status, error);
      return null;
    });
  }

  @Override
  public void changeUrl(long id, String url, RemoteIdentity remote) {
    store.call(connection, "change the URL of download " + id, c -> {
      try (PreparedStatement s = c.prepareStatement("UPDATE downloads SET url = ?, final_url = ?, length = ?, etag = ?,"
          + " last_modified = ?, ranges = ?, updated_ms = ? WHERE id = ?")) {
        QueueRows.bind(s, url, remote.finalUrl(), remote.length(), remote.etag(), remote.lastModified());
        s.setBoolean(6, remote.ranges());
        QueueRows.bindFrom(s, 7, System.currentTimeMillis(), id);
        s.executeUpdate();
      }
      return null;
    });
  }

  @Override
  public void delete(long id) {
    store.call(connection, "delete download " + id, c -> {
      execute(c, "DELETE FROM downloads WHERE id = ?", id);
      return null;
    });
  }

  private static void writeProgress(Connection c, long id, List<SegmentRecord> segments, Map<Integer, Integer> sums)
      throws SQLException {
    execute(c, "DELETE FROM segments WHERE download_id = ?", id);
    insertSegments(c, id, segments);
    if (!sums.isEmpty()) {
      try (PreparedStatement s = c.prepareStatement("INSERT INTO blocks (download_id, idx, crc) VALUES (?, ?, ?)"
          + " ON CONFLICT (download_id, idx) DO UPDATE SET crc = EXCLUDED.crc")) {
        for (Map.Entry<Integer, Integer> b : sums.entrySet()) {
          QueueRows.bind(s, id, b.getKey(), (long) b.getValue());
          s.addBatch();
        }
        s.executeBatch();
      }
    }
  }

  private static void insertSegments(Connection c, long id, List<SegmentRecord> segments) throws SQLException {
    if (segments.isEmpty()) {
      return;
    }
    try (PreparedStatement s = c.prepareStatement("INSERT INTO segments (download_id, start, stop, done) VALUES (?, ?, ?, ?)")) {
      for (SegmentRecord r : segments) {
        QueueRows.bind(s, id, r.start(), r.end(), r.done());
        s.addBatch();
      }
      s.executeBatch();
    }
  }

  private static void setStatus(Connection c, long id, DownloadState status, String error) throws SQLException {
    execute(c, "UPDATE downloads SET status = ?, error = ?, updated_ms = ? WHERE id = ?", status, error,
        System.currentTimeMillis(), id);
  }

  private static void execute(Connection c, String sql, Object... args) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql)) {
      QueueRows.bind(s, args);
      s.executeUpdate();
    }
  }

  private List<DownloadRecord> records(String what, String sql, Object... args) {
    return store.call(connection, what, c -> {
      try (PreparedStatement s = c.prepareStatement(sql)) {
        QueueRows.bind(s, args);
        List<DownloadRecord> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery()) {
          while (rs.next()) {
            RemoteIdentity remote = new RemoteIdentity(rs.getString(4), rs.getLong(5), rs.getString(6), rs.getString(7),
                rs.getBoolean(8));
            out.add(new DownloadRecord(rs.getLong(1), rs.getString(2), Path.of(rs.getString(3)), remote,
                DownloadState.valueOf(rs.getString(9)), rs.getString(10)));
          }
        }
        return out;
      }
    });
  }
}
