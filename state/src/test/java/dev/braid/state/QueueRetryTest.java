package dev.braid.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.store.DownloadState;
import dev.braid.store.EntryProgress;
import dev.braid.store.EntryRetry;
import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Entries waiting out an outage in the SQLite queue: kept with their next try, not run before it, ended by a person's action. */
class QueueRetryTest {
  @TempDir Path dir;
  private Store store;

  @BeforeEach
  void open() {
    store = Store.open(dir.resolve("retry.db"));
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void aWaitingEntryRunsOnlyOnceItsTimeHasComeAndAPersonsActionEndsTheWait() {
    QueueStore q = store.queue();
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      ids.add(q.add(List.of("http://127.0.0.1:9/f" + i), null, dir, Map.of(), 0, null, DownloadState.QUEUED).id());
    }
    long later = System.currentTimeMillis() + 60_000;
    long since = System.currentTimeMillis() - 5_000;
    q.start(ids.get(0), "a:1:1").orElseThrow();
    QueueEntry waiting = q.finish("a:1:1", new EntryProgress(ids.get(0), null, 10, 4), DownloadState.QUEUED, "refused",
        "NetworkException", new EntryRetry(later, 2, since)).orElseThrow();
    assertEquals(DownloadState.QUEUED, waiting.state());
    assertEquals(new EntryRetry(later, 2, since), waiting.retry());
    assertEquals("refused", waiting.error(), "the last error is kept while it waits");
    q.start(ids.get(1), "a:1:1").orElseThrow();
    q.finish("a:1:1", new EntryProgress(ids.get(1), null, 10, 4), DownloadState.QUEUED, "503", "HttpStatusException:503",
        new EntryRetry(System.currentTimeMillis() - 1, 3, since));
    assertEquals(List.of(ids.get(1)), q.runnable(10, 0), "only the entry whose time has come");
    assertTrue(q.start(ids.get(0), "b:2:2").isEmpty(), "not started before its time");
    QueueEntry due = q.start(ids.get(1), "b:2:2").orElseThrow();
    assertEquals(new EntryRetry(0, 3, since), due.retry(), "its wait ends, its count stays for the next failure");
    q.setState(ids.get(0), DownloadState.QUEUED, null, null);
    assertEquals(EntryRetry.NONE, q.get(ids.get(0)).orElseThrow().retry(), "a person's resume ends the wait");
    assertEquals(List.of(ids.get(0), ids.get(1)), q.runnable(10, 0), "runnable again (beside the active one, as this store lists it)");
    QueueEntry done = q.finish("b:2:2", new EntryProgress(ids.get(1), null, 10, 10), DownloadState.COMPLETED, null, null,
        EntryRetry.NONE).orElseThrow();
    assertEquals(EntryRetry.NONE, done.retry());
  }
}
