package dev.braid.state;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** Versioned schema changes, applied in order; the applied count lives in {@code PRAGMA user_version}. */
final class Migrations {
  /** The next change number of the queue: past every entry's and every removal's (schema v8). */
  private static final String NEXT_SEQ =
      "max(coalesce((SELECT max(seq) FROM queue), 0), coalesce((SELECT max(seq) FROM queue_removed), 0)) + 1";
  private static final List<List<String>> STEPS = List.of(
      List.of(
        """
        CREATE TABLE downloads (
          id            INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: ids are shown to users
          url           TEXT    NOT NULL,
          target        TEXT    NOT NULL UNIQUE,
          final_url     TEXT    NOT NULL,
          length        INTEGER NOT NULL,
          etag          TEXT,
          last_modified TEXT,
          ranges        INTEGER NOT NULL,
          status        TEXT    NOT NULL,
          error         TEXT,
          created_ms    INTEGER NOT NULL,
          updated_ms    INTEGER NOT NULL
        )""",
        """
        CREATE TABLE segments (
          download_id INTEGER NOT NULL REFERENCES downloads(id) ON DELETE CASCADE,
          start       INTEGER NOT NULL,
          end         INTEGER NOT NULL,
          done        INTEGER NOT NULL,
          PRIMARY KEY (download_id, start)
        )"""),
      List.of(
        """
        CREATE TABLE hosts (
          host           TEXT    PRIMARY KEY,
          limit_conns    INTEGER NOT NULL,
          good_conns     INTEGER NOT NULL,
          bytes_per_sec  REAL    NOT NULL,
          updated_ms     INTEGER NOT NULL
        )"""),
      List.of(
        // what users submit: the request, its place in the queue and who drives it; the engine's
        // resume record (downloads, above) is found by target once the server named the file
        """
        CREATE TABLE queue (
          id            INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: shown to users
          urls          TEXT    NOT NULL, -- the URL, then its mirrors, one per line
          file          TEXT,
          directory     TEXT    NOT NULL,
          options       TEXT    NOT NULL, -- key=value lines (connections, checksum, rate limit...)
          priority      INTEGER NOT NULL,
          state         TEXT    NOT NULL,
          error         TEXT,
          error_kind    TEXT,
          target        TEXT,
          length        INTEGER NOT NULL,
          done          INTEGER NOT NULL,
          owner         TEXT,             -- host:pid:start of the process driving it
          heartbeat_ms  INTEGER NOT NULL,
          created_ms    INTEGER NOT NULL,
          updated_ms    INTEGER NOT NULL
        )""",
        "CREATE INDEX queue_by_state ON queue (state, priority DESC, id)",
        """
        CREATE TABLE settings (
          key   TEXT PRIMARY KEY,
          value TEXT NOT NULL
        )"""),
      List.of(
        // CRC32C of each finished 1 MiB block of a part file, so a resume re-checks the bytes on disk
        """
        CREATE TABLE blocks (
          download_id INTEGER NOT NULL REFERENCES downloads(id) ON DELETE CASCADE,
          idx         INTEGER NOT NULL,
          crc         INTEGER NOT NULL,
          PRIMARY KEY (download_id, idx)
        )"""),
      List.of(
        // per host and HTTP version: the throughput a download measured, or that the server
        // refused the version; a table of its own, since `hosts` rows are replaced whole
        """
        CREATE TABLE host_protocols (
          host           TEXT    NOT NULL,
          protocol       TEXT    NOT NULL, -- ALPN name: http/1.1 or h2
          offered        INTEGER NOT NULL,
          bytes_per_sec  REAL    NOT NULL,
          updated_ms     INTEGER NOT NULL,
          PRIMARY KEY (host, protocol)
        )"""),
      List.of(
        // every download looks up earlier records of its URL and every submission earlier queue
        // entries of its URL: without these, a store with a long history scans it each time
        "CREATE INDEX downloads_by_url ON downloads (url)",
        "CREATE INDEX queue_by_url ON queue (" + QueueReads.FIRST_URL + ")"),
      List.of(
        // each heartbeat (twice a second) reads the entries its process owns: without this it
        // scanned the whole queue, history included (60,000 rows after one large batch)
        "CREATE INDEX queue_by_owner ON queue (owner) WHERE owner IS NOT NULL"),
      List.of(
        // a change number per entry, the next one on every insert and update (writers take
        // turns, so the numbers follow commit order): another process reads only what changed
        // since it last looked, instead of every row of the history each second. A removal is a
        // change too: a row that is gone cannot carry its number, so the id and the number go to
        // queue_removed, and every trigger counts past both tables
        "ALTER TABLE queue ADD COLUMN seq INTEGER NOT NULL DEFAULT 0",
        "UPDATE queue SET seq = id",
        "CREATE INDEX queue_by_seq ON queue (seq)",
        "CREATE TABLE queue_removed (id INTEGER NOT NULL, seq INTEGER NOT NULL)",
        "CREATE INDEX queue_removed_by_seq ON queue_removed (seq)",
        "CREATE TRIGGER queue_seq_on_insert AFTER INSERT ON queue BEGIN\n  UPDATE queue SET seq = " + NEXT_SEQ
            + " WHERE id = NEW.id;\nEND",
        // the WHEN keeps the trigger's own update from numbering the row again
        "CREATE TRIGGER queue_seq_on_update AFTER UPDATE ON queue WHEN NEW.seq = OLD.seq BEGIN\n  UPDATE queue SET seq = "
            + NEXT_SEQ + " WHERE id = NEW.id;\nEND",
        // OLD.seq counts: the removed row may have held the highest number
        "CREATE TRIGGER queue_seq_on_delete AFTER DELETE ON queue BEGIN\n  INSERT INTO queue_removed (id, seq) VALUES"
            + " (OLD.id, max(OLD.seq + 1, " + NEXT_SEQ + "));\nEND"),
      List.of(
        // a submission with a named file (-o, aria2's out) looks for an unfinished entry writing
        // it: without this, each such add scanned the whole history, so adds slowed as the queue grew
        "CREATE INDEX queue_unfinished_by_file ON queue (file) WHERE file IS NOT NULL AND state <> 'COMPLETED'"),
      List.of(
        // a download's request headers (a browser's cookies, credentials), so that it resumes
        // after a restart; a table of their own, so that no read of entries carries them, gone
        // with their entry
        """
        CREATE TABLE queue_headers (
          id       INTEGER PRIMARY KEY REFERENCES queue(id) ON DELETE CASCADE,
          headers  TEXT    NOT NULL -- Name=value lines; secrets, never printed
        )"""),
      List.of(
        // an entry waiting out an outage: queued, but not to start before retry_at (epoch ms, 0:
        // at once), after retry_count failed runs in a row since retry_since; kept so that a
        // restarted process goes on waiting instead of failing or forgetting it
        "ALTER TABLE queue ADD COLUMN retry_at INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE queue ADD COLUMN retry_count INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE queue ADD COLUMN retry_since INTEGER NOT NULL DEFAULT 0",
        // the runnable page reads retry_at too: in the index, it still reads the index alone
        "DROP INDEX queue_by_state",
        "CREATE INDEX queue_by_state ON queue (state, priority DESC, id, retry_at)"));

  private Migrations() {}

  static int latest() {
    return STEPS.size();
  }

  /**
   * Brings the schema to the latest version in one transaction; refuses a newer database. The
   * version is read inside the (IMMEDIATE, so write-locked) transaction: two processes opening a
   * new database at once would otherwise both see version 0 and the second would fail to create
   * tables the first just made.
   */
  static void apply(Connection c) throws SQLException {
    c.setAutoCommit(false);
    try (Statement s = c.createStatement()) {
      int version;
      try (var rs = s.executeQuery("PRAGMA user_version")) {
        version = rs.getInt(1);
      }
      if (version > latest()) {
        throw new SQLException("schema version " + version + " is newer than this Braid understands (" + latest() + ")");
      }
      for (int i = version; i < latest(); i++) {
        for (String sql : STEPS.get(i)) {
          s.execute(sql);
        }
      }
      if (version < latest()) {
        s.execute("PRAGMA user_version = " + latest());
      }
      c.commit();
    } catch (SQLException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(true);
    }
  }
}
