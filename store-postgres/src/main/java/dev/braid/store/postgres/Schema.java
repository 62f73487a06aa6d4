package dev.braid.store.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Versioned schema changes of the PostgreSQL store, applied in order; the applied count lives in
 * {@code braid_schema}. The tables follow the SQLite store's (state/Migrations.java) with what a
 * fleet adds: a lease per queue entry (its end on the server's clock, so workers' clocks need
 * not agree), the transaction id of each entry's last change for the change feed, who recorded a
 * completion and when, and the per-host connection grants.
 */
final class Schema {
  /** Every worker opening the store at once takes this lock first, so only one creates the tables. */
  private static final long MIGRATION_LOCK = 0x6272616964L; // "braid"

  private static final List<List<String>> STEPS = List.of(
      List.of(
        """
        CREATE TABLE downloads (
          id            bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY, -- never reused: shown to users
          url           text    NOT NULL,
          target        text    NOT NULL UNIQUE,
          final_url     text    NOT NULL,
          length        bigint  NOT NULL,
          etag          text,
          last_modified text,
          ranges        boolean NOT NULL,
          status        text    NOT NULL,
          error         text,
          created_ms    bigint  NOT NULL,
          updated_ms    bigint  NOT NULL
        )""",
        "CREATE INDEX downloads_by_url ON downloads (url)",
        """
        CREATE TABLE segments (
          download_id bigint NOT NULL REFERENCES downloads(id) ON DELETE CASCADE,
          start       bigint NOT NULL,
          stop        bigint NOT NULL, -- SQLite's `end`, a reserved word here
          done        bigint NOT NULL,
          PRIMARY KEY (download_id, start)
        )""",
        """
        CREATE TABLE blocks (
          download_id bigint NOT NULL REFERENCES downloads(id) ON DELETE CASCADE,
          idx         integer NOT NULL,
          crc         bigint  NOT NULL,
          PRIMARY KEY (download_id, idx)
        )""",
        """
        CREATE TABLE hosts (
          host           text    PRIMARY KEY,
          limit_conns    integer NOT NULL,
          good_conns     integer NOT NULL,
          bytes_per_sec  double precision NOT NULL,
          updated_ms     bigint  NOT NULL
        )""",
        """
        CREATE TABLE host_protocols (
          host           text    NOT NULL,
          protocol       text    NOT NULL,
          offered        boolean NOT NULL,
          bytes_per_sec  double precision NOT NULL,
          updated_ms     bigint  NOT NULL,
          PRIMARY KEY (host, protocol)
        )""",
        """
        CREATE TABLE settings (
          key   text PRIMARY KEY,
          value text NOT NULL
        )""",
        """
        CREATE TABLE queue (
          id            bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          urls          text    NOT NULL, -- the URL, then its mirrors, one per line
          first_url     text    GENERATED ALWAYS AS (split_part(urls, E'\\n', 1)) STORED,
          file          text,
          directory     text    NOT NULL,
          options       text    NOT NULL,
          priority      integer NOT NULL,
          state         text    NOT NULL,
          error         text,
          error_kind    text,
          target        text,
          length        bigint  NOT NULL,
          done          bigint  NOT NULL,
          owner         text,             -- the worker driving or holding it
          lease_until   timestamptz,      -- the owner's hold lapses then (server clock)
          heartbeat_ms  bigint  NOT NULL,
          created_ms    bigint  NOT NULL,
          updated_ms    bigint  NOT NULL,
          completed_by  text,             -- the owner whose completion was recorded, once
          completed_at  timestamptz,
          changed_xid   xid8    NOT NULL DEFAULT pg_current_xact_id()
        )""",
        // the claim's scan: runnable entries in the order they run
        "CREATE INDEX queue_runnable ON queue (priority DESC, id) WHERE state IN ('QUEUED', 'ACTIVE')",
        "CREATE INDEX queue_by_owner ON queue (owner) WHERE owner IS NOT NULL",
        "CREATE INDEX queue_by_url ON queue (first_url)",
        "CREATE INDEX queue_by_change ON queue (changed_xid)",
        // a removal is a change too: the row is gone, so its id goes here with the remover's transaction
        """
        CREATE TABLE queue_removed (
          id          bigint NOT NULL,
          changed_xid xid8   NOT NULL DEFAULT pg_current_xact_id()
        )""",
        "CREATE INDEX queue_removed_by_change ON queue_removed (changed_xid)",
        """
        CREATE FUNCTION queue_mark_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          NEW.changed_xid := pg_current_xact_id();
          RETURN NEW;
        END $$""",
        "CREATE TRIGGER queue_change BEFORE UPDATE ON queue FOR EACH ROW EXECUTE FUNCTION queue_mark_change()",
        """
        CREATE FUNCTION queue_mark_removal() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO queue_removed (id) VALUES (OLD.id);
          RETURN OLD;
        END $$""",
        "CREATE TRIGGER queue_removal AFTER DELETE ON queue FOR EACH ROW EXECUTE FUNCTION queue_mark_removal()",
        // per host, the connections each worker holds; a worker's row lapses with its lease
        """
        CREATE TABLE host_grants (
          host         text    NOT NULL,
          owner        text    NOT NULL,
          connections  integer NOT NULL CHECK (connections >= 0),
          lease_until  timestamptz NOT NULL,
          PRIMARY KEY (host, owner)
        )""",
        "CREATE INDEX host_grants_by_owner ON host_grants (owner)"),
      List.of(
        // a submission with a named file looks for an unfinished entry writing it (as the SQLite store)
        "CREATE INDEX queue_unfinished_by_file ON queue (file) WHERE file IS NOT NULL AND state <> 'COMPLETED'"),
      List.of(
        // a download's request headers (a browser's cookies, credentials): any worker that takes
        // the entry over needs them; a table of their own, as in the SQLite store
        """
        CREATE TABLE queue_headers (
          id       bigint PRIMARY KEY REFERENCES queue(id) ON DELETE CASCADE,
          headers  text   NOT NULL -- Name=value lines; secrets, never printed
        )"""),
      List.of(
        // an entry waiting out an outage (as the SQLite store): queued, not to start before
        // retry_at (epoch ms, 0: at once), after retry_count failed runs in a row since retry_since
        "ALTER TABLE queue ADD COLUMN retry_at bigint NOT NULL DEFAULT 0",
        "ALTER TABLE queue ADD COLUMN retry_count integer NOT NULL DEFAULT 0",
        "ALTER TABLE queue ADD COLUMN retry_since bigint NOT NULL DEFAULT 0"));

  private Schema() {}

  static int latest() {
    return STEPS.size();
  }

  /** Brings the schema to the latest version in one transaction; refuses a newer database. */
  static void apply(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("SELECT pg_advisory_xact_lock(" + MIGRATION_LOCK + ")");
      s.execute("CREATE TABLE IF NOT EXISTS braid_schema (version integer NOT NULL)");
      int version = 0;
      try (ResultSet rs = s.executeQuery("SELECT version FROM braid_schema")) {
        if (rs.next()) {
          version = rs.getInt(1);
        } else {
          s.execute("INSERT INTO braid_schema (version) VALUES (0)");
        }
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
        s.execute("UPDATE braid_schema SET version = " + latest());
      }
    }
  }
}
