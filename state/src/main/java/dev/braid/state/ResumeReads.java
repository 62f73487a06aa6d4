package dev.braid.state;

import dev.braid.store.DownloadRecord;
import dev.braid.store.DownloadState;
import dev.braid.store.RemoteIdentity;
import dev.braid.store.SegmentRecord;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the resume records: the {@code downloads}, {@code segments} and {@code blocks} tables.
 *
 * <p>Locking: each read is a {@link Connections#read}, on the reader under its lock.
 */
final class ResumeReads {
  /**
   * The columns of a record, in the order {@link #read} reads them: by position, as the driver
   * otherwise looks each name up in every result set anew.
   */
  static final String RECORD = "id, url, target, final_url, length, etag, last_modified, ranges, status, error";
  static final String UNFINISHED =
      "SELECT " + RECORD + " FROM downloads WHERE url = ? AND status <> 'COMPLETED' ORDER BY id DESC";

  private final Connections db;

  ResumeReads(Connections db) {
    this.db = db;
  }

  Optional<DownloadRecord> findByTarget(Path target) {
    return query("SELECT " + RECORD + " FROM downloads WHERE target = ?", target.toAbsolutePath().toString())
        .stream().findFirst();
  }

  List<DownloadRecord> findUnfinished(String url) {
    return query(UNFINISHED, url);
  }

  Optional<DownloadRecord> find(long id) {
    return db.read("read download " + id, () -> {
      PreparedStatement s = db.readStatement("SELECT " + RECORD + " FROM downloads WHERE id = ?");
      s.setLong(1, id);
      return read(s).stream().findFirst();
    });
  }

  List<DownloadRecord> list() {
    return db.read("list downloads", () -> read(db.readStatement("SELECT " + RECORD + " FROM downloads ORDER BY id")));
  }

  List<SegmentRecord> segments(long id) {
    return db.read("read segments of download " + id, () -> {
      PreparedStatement s = db.readStatement("SELECT start, end, done FROM segments WHERE download_id = ? ORDER BY start");
      s.setLong(1, id);
      List<SegmentRecord> out = new ArrayList<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          out.add(new SegmentRecord(rs.getLong(1), rs.getLong(2), rs.getLong(3)));
        }
      }
      return out;
    });
  }

  Map<Integer, Integer> blockSums(long id) {
    return db.read("read block sums of download " + id, () -> {
      PreparedStatement s = db.readStatement("SELECT idx, crc FROM blocks WHERE download_id = ?");
      s.setLong(1, id);
      Map<Integer, Integer> out = new HashMap<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          out.put(rs.getInt(1), rs.getInt(2));
        }
      }
      return out;
    });
  }

  private List<DownloadRecord> query(String sql, String arg) {
    return db.read("read downloads", () -> {
      PreparedStatement s = db.readStatement(sql);
      s.setString(1, arg);
      return read(s);
    });
  }

  private static List<DownloadRecord> read(PreparedStatement s) throws SQLException {
    List<DownloadRecord> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        RemoteIdentity remote = new RemoteIdentity(
            rs.getString(4), rs.getLong(5), rs.getString(6), rs.getString(7), rs.getInt(8) != 0);
        out.add(new DownloadRecord(rs.getLong(1), rs.getString(2), Path.of(rs.getString(3)), remote,
            DownloadState.valueOf(rs.getString(9)), rs.getString(10)));
      }
    }
    return out;
  }
}
