package dev.braid.state;

import dev.braid.store.EntryState;
import dev.braid.store.OptionsText;
import dev.braid.store.QueueEntry;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.Map;

/**
 * What users ask of the queue: new entries, entries submitted again, changes to an entry's state,
 * URLs, priority and options, and removals.
 *
 * <p>Locking: every method is a {@link Store#write}, run under the store's lock; callers need not hold it.
 */
final class QueueSubmissions {
  private final Store store;
  private final QueueRows rows;

  QueueSubmissions(Store store, QueueRows rows) {
    this.store = store;
    this.rows = rows;
  }

  QueueEntry add(List<String> urls, Path file, Path directory, Map<String, String> options, int priority,
      String owner, EntryState state) {
    String encoded = OptionsText.encode(options);
    long now = System.currentTimeMillis();
    long id = store.write("queue " + urls.get(0), () -> {
      PreparedStatement s = store.statement(
        "INSERT INTO queue (urls, file, directory, options, priority, state, length, done, owner, heartbeat_ms,"
            + " created_ms, updated_ms) VALUES (?, ?, ?, ?, ?, ?, -1, 0, ?, ?, ?, ?) RETURNING id");
      s.setString(1, String.join("\n", urls));
      Statements.setNullable(s, 2, file == null ? null : file.toString());
      s.setString(3, directory.toString());
      s.setString(4, encoded);
      s.setInt(5, priority);
      s.setString(6, state.name());
      s.setString(7, owner);
      s.setLong(8, now);
      s.setLong(9, now);
      s.setLong(10, now);
      return Statements.insertedId(s);
    });
    // the entry as written, not read back: a batch adds one every few milliseconds
    return new QueueEntry(id, List.copyOf(urls), file, directory, OptionsText.decode(encoded), priority, state, null, null,
        null, -1, 0, owner, now);
  }

  void setState(long id, EntryState state, String error, String errorKind) {
    store.write("update queue entry " + id, () -> {
      PreparedStatement s = store.statement(
        "UPDATE queue SET state = ?, error = ?, error_kind = ?, updated_ms = ? WHERE id = ?");
      s.setString(1, state.name());
      Statements.setNullable(s, 2, error);
      Statements.setNullable(s, 3, errorKind);
      s.setLong(4, System.currentTimeMillis());
      s.setLong(5, id);
      s.executeUpdate();
      return null;
    });
  }

  void requeue(long id, List<String> urls, Map<String, String> options, int priority, String owner, EntryState state) {
    long now = System.currentTimeMillis();
    rows.write("UPDATE queue SET urls = ?, options = ?, priority = ?, state = ?, error = NULL, error_kind = NULL,"
        + " owner = ?, heartbeat_ms = ?, updated_ms = ? WHERE id = ?", String.join("\n", urls), OptionsText.encode(options), priority,
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
