package dev.braid.store.contract;

import static dev.braid.store.contract.StoreContract.addQueued;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.store.ChangeMark;
import dev.braid.store.DownloadState;
import dev.braid.store.EntryProgress;
import dev.braid.store.EntryRetry;
import dev.braid.store.NewEntry;
import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;
import dev.braid.store.StateStore;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A queue entry's request headers ({@link QueueStore#headers}): written with the entry, read by
 * another process (a fleet's other worker, a restarted daemon), replaced, dropped, gone with the
 * entry or its completion, and never part of what reads of entries return.
 */
public interface QueueHeadersContract extends StoreContract {
  /** A header value no read of entries may show. */
  String COOKIE = "session=c00kie-s3cret";

  @Test
  default void headersWrittenWithTheEntryAreReadByAnotherProcessAndNoReadOfEntriesCarriesThem() throws Exception {
    StateStore store = stores().open();
    QueueStore submitter = store.queue();
    ChangeMark before = submitter.mark();
    Map<String, String> headers = Map.of("Cookie", COOKIE, "Referer", "https://example.com/page", "User-Agent", "Browser/1");
    QueueEntry e = submitter.addAll(List.of(new NewEntry(List.of("http://127.0.0.1/f"), DIR.resolve("f"), DIR,
        Map.of("connections", "2"), 0, null, DownloadState.QUEUED, headers))).get(0);
    QueueEntry plain = submitter.add(List.of("http://127.0.0.1/g"), null, DIR, Map.of(), 0, null, DownloadState.QUEUED);

    QueueStore worker = another(store);
    assertEquals(headers, worker.headers(e.id()));
    assertEquals(Map.of(), worker.headers(plain.id()));
    // whatever shows entries (lists, pages, the feed, a start) shows no header value
    List<Object> reads = new ArrayList<>();
    reads.add(e);
    reads.add(worker.get(e.id()).orElseThrow());
    reads.add(worker.all());
    reads.add(worker.page(EnumSet.allOf(DownloadState.class), true, 0, 10));
    reads.add(worker.changedBetween(before.latestChange(), worker.mark().latestChange()));
    reads.add(worker.matching("http://127.0.0.1/f", DIR.resolve("f"), DIR));
    reads.add(worker.start(e.id(), A).orElseThrow());
    reads.add(worker.census());
    for (Object r : reads) {
      assertFalse(r.toString().contains("c00kie"), () -> r.toString());
    }
  }

  @Test
  default void headersAreReplacedDroppedAndGoWithTheirEntry() throws Exception {
    StateStore store = stores().open();
    QueueStore q = store.queue();
    QueueStore other = another(store);
    long id = q.add(List.of("http://127.0.0.1/f"), null, DIR, Map.of(), 0, null, DownloadState.PAUSED).id();
    q.setHeaders(id, Map.of("Cookie", COOKIE, "Referer", "https://example.com/"));
    q.setHeaders(id, Map.of("Cookie", "session=fresh"));
    assertEquals(Map.of("Cookie", "session=fresh"), other.headers(id), "replaced, not merged");
    q.setHeaders(id, Map.of());
    assertEquals(Map.of(), other.headers(id));

    q.setHeaders(id, Map.of("Cookie", COOKIE));
    q.remove(id);
    assertEquals(Map.of(), other.headers(id), "gone with the entry");
    // an entry removed meanwhile (by another process): nothing to store, and no failure
    q.setHeaders(id, Map.of("Cookie", COOKIE));
    assertEquals(Map.of(), q.headers(id));
    assertTrue(q.get(id).isEmpty());
  }

  @Test
  default void aFailedRunKeepsItsHeadersAndACompletedOneForgetsThemAtItsEnd() throws Exception {
    StateStore store = stores().open();
    QueueStore q = store.queue();
    QueueStore other = another(store);
    long id = q.addAll(List.of(new NewEntry(List.of("http://127.0.0.1/f"), DIR.resolve("f"), DIR, Map.of(), 0, null,
        DownloadState.QUEUED, Map.of("Cookie", COOKIE)))).get(0).id();
    q.start(id, A).orElseThrow();
    q.finish(A, new EntryProgress(id, DIR.resolve("f"), 10, 5), DownloadState.FAILED, "403", "http-status", EntryRetry.NONE);
    assertEquals(Map.of("Cookie", COOKIE), other.headers(id), "a failed download may be resumed with them");
    q.setState(id, DownloadState.QUEUED, null, null);
    q.start(id, A).orElseThrow();
    q.finish(A, new EntryProgress(id, DIR.resolve("f"), 10, 10), DownloadState.COMPLETED, null, null, EntryRetry.NONE);
    assertEquals(Map.of(), other.headers(id), "a completed download sends no more requests");
  }

  @Test
  default void theLateCompletionOfAnOwnerThatNoLongerHoldsTheEntryKeepsItsHeaders() throws Exception {
    StateStore store = stores().open();
    QueueStore q = store.queue();
    long id = addQueued(q, "late", 1).get(0);
    q.setHeaders(id, Map.of("Cookie", COOKIE));
    q.start(id, A).orElseThrow();
    q.release(id, A);
    QueueStore b = another(store);
    b.start(id, B).orElseThrow();
    q.finish(A, new EntryProgress(id, null, 10, 10), DownloadState.COMPLETED, null, null, EntryRetry.NONE);
    assertEquals(Map.of("Cookie", COOKIE), b.headers(id), "B's run still sends them");
  }
}
