package dev.braid.state;

import dev.braid.store.DownloadState;
import dev.braid.store.RemoteIdentity;
import dev.braid.store.SegmentRecord;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * Writes the resume records: the {@code downloads}, {@code segments} and {@code blocks} tables,
 * each change in one transaction.
 *
 * <p>Locking: every method is a {@link Connections#write}, which runs it under the writer's lock; callers need not hold it.
 */
final class ResumeWrites {
  private final Connections db;

  ResumeWrites(Connections db) {
    this.db = db;
  }

  long create(String url, Path target, RemoteIdentity remote, List<SegmentRecord> segments) {
    return db.write("create download for " + target, () -> {
      long now = System.currentTimeMillis();
      long id;
      // target is unique: REPLACE deletes an earlier record of it, and with it (foreign keys are
      // on) its segments and block sums, in the same statement
      PreparedStatement s = db.statement("INSERT OR REPLACE INTO downloads"
          + " (url, target, final_url, length, etag, last_modified, ranges, status, created_ms, updated_ms)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id");
      s.setString(1, url);
      s.setString(2, target.toAbsolutePath().toString());
      bindRemote(s, 3, remote);
      s.setString(8, DownloadState.ACTIVE.name());
      s.setLong(9, now);
      s.setLong(10, now);
      id = Statements.insertedId(s);
      // a new id has no segments yet
      insertSegments(id, segments);
      return id;
    });
  }

  void checkpoint(long id, List<SegmentRecord> segments, Map<Integer, Integer> newBlockSums) {
    db.write("checkpoint download " + id, () -> {
      writeProgress(id, segments, newBlockSums);
      touch(id);
      return null;
    });
  }

  void complete(long id, List<SegmentRecord> segments, Map<Integer, Integer> newBlockSums) {
    db.write("complete download " + id, () -> {
      writeProgress(id, segments, newBlockSums);
      setStatus(id, DownloadState.COMPLETED, null);
      return null;
    });
  }

  private void writeProgress(long id, List<SegmentRecord> segments, Map<Integer, Integer> blockSums) throws SQLException {
    writeSegments(id, segments);
    if (!blockSums.isEmpty()) {
      PreparedStatement s = db.statement(
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

  void repair(long id, List<SegmentRecord> segments, Map<Integer, Integer> validSums) {
    db.write("repair download " + id, () -> {
      PreparedStatement d = db.statement("DELETE FROM blocks WHERE download_id = ?");
      d.setLong(1, id);
      d.executeUpdate();
      writeProgress(id, segments, validSums);
      touch(id);
      return null;
    });
  }

  void markStatus(long id, DownloadState status, String error) {
    db.write("update download " + id, () -> {
      setStatus(id, status, error);
      return null;
    });
  }

  private void setStatus(long id, DownloadState status, String error) throws SQLException {
    PreparedStatement s = db.statement("UPDATE downloads SET status = ?, error = ?, updated_ms = ? WHERE id = ?");
    s.setString(1, status.name());
    s.setString(2, error);
    s.setLong(3, System.currentTimeMillis());
    s.setLong(4, id);
    s.executeUpdate();
  }

  void changeUrl(long id, String url, RemoteIdentity remote) {
    db.write("change the URL of download " + id, () -> {
      PreparedStatement s = db.statement("UPDATE downloads SET url = ?, final_url = ?, length = ?, etag = ?,"
          + " last_modified = ?, ranges = ?, updated_ms = ? WHERE id = ?");
      s.setString(1, url);
      bindRemote(s, 2, remote);
      s.setLong(7, System.currentTimeMillis());
      s.setLong(8, id);
      s.executeUpdate();
      return null;
    });
  }

  void delete(long id) {
    db.write("delete download " + id, () -> {
      PreparedStatement s = db.statement("DELETE FROM downloads WHERE id = ?");
      s.setLong(1, id);
      s.executeUpdate();
      return null;
    });
  }

  private void writeSegments(long id, List<SegmentRecord> segments) throws SQLException {
    PreparedStatement d = db.statement("DELETE FROM segments WHERE download_id = ?");
    d.setLong(1, id);
    d.executeUpdate();
    insertSegments(id, segments);
  }

  private void insertSegments(long id, List<SegmentRecord> segments) throws SQLException {
    PreparedStatement s = db.statement(
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

  private void touch(long id) throws SQLException {
    PreparedStatement s = db.statement("UPDATE downloads SET updated_ms = ? WHERE id = ?");
    s.setLong(1, System.currentTimeMillis());
    s.setLong(2, id);
    s.executeUpdate();
  }

  private static void bindRemote(PreparedStatement s, int from, RemoteIdentity r) throws SQLException {
    s.setString(from, r.finalUrl());
    s.setLong(from + 1, r.length());
    Statements.setNullable(s, from + 2, r.etag());
    Statements.setNullable(s, from + 3, r.lastModified());
    s.setInt(from + 4, r.ranges() ? 1 : 0);
  }
}
