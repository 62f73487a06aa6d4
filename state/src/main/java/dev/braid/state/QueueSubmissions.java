package dev.braid.state;

import dev.braid.store.DownloadState;
import dev.braid.store.NewEntry;
import dev.braid.store.OptionsText;
import dev.braid.store.QueueEntry;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What users ask of the queue: new entries, entries submitted again, changes to an entry's state,
 * URLs, priority and options, and removals.
 *
 * <p>Locking: every method is a {@link Connections#write}, run under the writer's lock; callers need not hold it.
 */
final class QueueSubmissions {
  private final Connections db;
  private final QueueRows rows;
  private final QueueHeaders headers;

  QueueSubmissions(Connections db, QueueRows rows, QueueHeaders headers) {
    this.db = db;
    this.rows = rows;
    this.headers = headers;
  }

  /** The entries and their headers in one write. */
  List<QueueEntry> addAll(List<NewEntry> entries) {
    long now = System.currentTimeMillis();
    List<Long> ids = db.write(entries.size() == 1 ? "queue " + entries.get(0).urls().get(0) : "queue " + entries.size() + " downloads",
        () -> {
          PreparedStatement s = db.statement(
              "INSERT INTO queue (urls, file, directory, options, priority, state, length, done, owner, heartbeat_ms,"
                  + " created_ms, updated_ms) VALUES (?, ?, ?, ?, ?, ?, -1, 0, ?, ?, ?, ?) RETURNING id");
          List<Long> out = new ArrayList<>();
          for (int i = 0; i < entries.size(); i++) {
            NewEntry e = entries.get(i);
            s.setString(1, String.join("\n", e.urls()));
            Statements.setNullable(s, 2, e.file() == null ? null : e.file().toString());
            s.setString(3, e.directory().toString());
            s.setString(4, OptionsText.encode(e.options()));
            s.setInt(5, e.priority());
            s.setString(6, e.state().name());
            s.setString(7, e.owner());
            s.setLong(8, now);
            s.setLong(9, now);
            s.setLong(10, now);
            long id = Statements.insertedId(s);
            if (!e.headers().isEmpty()) {
              headers.insert(id, e.headers());
            }
            out.add(id);
          }
          return out;
        });
    List<QueueEntry> added = new ArrayList<>();
    for (int i = 0; i < entries.size(); i++) {
      added.add(entries.get(i).asWritten(ids.get(i), now));
    }
    return added;
  }

  void setState(long id, DownloadState state, String error, String errorKind) {
    db.write("update queue entry " + id, () -> {
      PreparedStatement s = db.statement(
        "UPDATE queue SET state = ?, error = ?, error_kind = ?, updated_ms = ?, retry_at = 0, retry_count = 0, retry_since = 0"
          + " WHERE id = ?");
      s.setString(1, state.name());
      Statements.setNullable(s, 2, error);
      Statements.setNullable(s, 3, errorKind);
      s.setLong(4, System.currentTimeMillis());
      s.setLong(5, id);
      s.executeUpdate();
      return null;
    });
  }

  void requeue(long id, List<String> urls, Map<String, String> options, int priority, String owner, DownloadState state) {
    long now = System.currentTimeMillis();
    rows.write("UPDATE queue SET urls = ?, options = ?, priority = ?, state = ?, error = NULL, error_kind = NULL,"
        + " retry_at = 0, retry_count = 0, retry_since = 0, owner = ?, heartbeat_ms = ?, updated_ms = ? WHERE id = ?", String.join("\n", urls), OptionsText.encode(options), priority,
        state.name(), owner, now, now, id);
  }

  void changeUrls(long id, List<String> urls, Path file) {
    rows.write("UPDATE queue SET urls = ?, file = ? WHERE id = ?", String.join("\n", urls), file.toString(), id);
  }

  void updateUrls(long id, List<String> urls) {
    rows.write("UPDATE queue SET urls = ? WHERE id = ?", String.join("\n", urls), id);
  }

  void updatePriority(long id, int priority) {
    rows.write("UPDATE queue SET priority = ? WHERE id = ?", priority, id);
  }

  void updateOptions(long id, Map<String, String> options) {
    rows.write("UPDATE queue SET options = ? WHERE id = ?", OptionsText.encode(options), id);
  }

  void remove(long id) {
    rows.write("DELETE FROM queue WHERE id = ?", id);
  }
}
