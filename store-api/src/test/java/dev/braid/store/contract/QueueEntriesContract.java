package dev.braid.store.contract;

import static dev.braid.store.contract.StoreContract.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.store.DownloadState;
import dev.braid.store.EntryProgress;
import dev.braid.store.EntryRetry;
import dev.braid.store.NewEntry;
import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;
import dev.braid.store.StateStore;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link QueueStore}'s entries as submitted and changed by users: added (alone and together),
 * read back by another process as written, found by URL and by file, paged as aria2 pages,
 * changed and removed.
 */
public interface QueueEntriesContract extends StoreContract {
  @Test
  default void entriesAddedTogetherTakeIdsInTheirOrderAndAnotherProcessReadsThemAsWritten() throws Exception {
    StateStore store = stores().open();
    List<NewEntry> entries = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      Map<String, String> options = new LinkedHashMap<>();
      options.put("connections", Integer.toString(i + 1));
      options.put("checksum", "sha-256=00ff");
      entries.add(new NewEntry(List.of("http://127.0.0.1:9/t" + i, "http://mirror.example/t" + i), i % 2 == 0 ? DIR.resolve("t" + i) : null,
          DIR, options, i, i == 0 ? A : null, i % 2 == 0 ? DownloadState.QUEUED : DownloadState.PAUSED));
    }
    List<QueueEntry> added = store.queue().addAll(entries);
    List<Long> ids = ids(added);
    assertEquals(ids.stream().sorted().distinct().toList(), ids, "ids in the order of the entries");
    QueueStore other = another(store);
    assertEquals(added, other.all(), "what addAll returns is what another process reads");
    for (QueueEntry e : added) {
      QueueEntry stored = other.get(e.id()).orElseThrow();
      assertEquals(e, stored);
      assertEquals(-1, stored.length(), "no length known yet");
      assertEquals(EntryRetry.NONE, stored.retry());
    }
    assertEquals(A, other.get(ids.get(0)).orElseThrow().owner(), "claimed by its submitter");
    assertTrue(other.get(ids.get(4) + 1000).isEmpty());
  }

  @Test
  default void entriesAddedTogetherAreAllAddedOrNone() throws Exception {
    StateStore store = stores().open();
    QueueStore q = store.queue();
    NewEntry good = new NewEntry(List.of("http://127.0.0.1:9/good"), null, DIR, Map.of(), 0, null, DownloadState.QUEUED);
    NewEntry bad = new NewEntry(List.of("http://127.0.0.1:9/bad"), null, DIR, Map.of("a=b", "c"), 0, null, DownloadState.QUEUED);
    assertThrows(RuntimeException.class, () -> q.addAll(List.of(good, bad)));
    assertEquals(List.of(), another(store).all(), "the first entry of a failed batch was kept");
    assertEquals(1, q.addAll(List.of(good)).size(), "the store still takes entries");
  }

  @Test
  default void entriesOfAUrlAreFoundByTheirFirstUrlAndTargetChoiceNewestFirst() throws Exception {
    QueueStore q = newQueue();
    QueueEntry plain = q.add(List.of("http://h/a_b"), null, DIR, Map.of(), 0, null, DownloadState.QUEUED);
    QueueEntry mirrored = q.add(List.of("http://h/a_b", "http://m/a_b"), null, DIR, Map.of(), 0, null, DownloadState.QUEUED);
    // a LIKE pattern's '_' must not match, nor a mirror, another folder or a named file
    q.add(List.of("http://h/aXb"), null, DIR, Map.of(), 0, null, DownloadState.QUEUED);
    q.add(List.of("http://other/x", "http://h/a_b"), null, DIR, Map.of(), 0, null, DownloadState.QUEUED);
    q.add(List.of("http://h/a_b"), null, DIR.resolve("elsewhere"), Map.of(), 0, null, DownloadState.QUEUED);
    QueueEntry named = q.add(List.of("http://h/a_b"), DIR.resolve("named"), DIR, Map.of(), 0, null, DownloadState.QUEUED);
    assertEquals(List.of(mirrored.id(), plain.id()), ids(q.matching("http://h/a_b", null, DIR)));
    assertEquals(List.of(named.id()), ids(q.matching("http://h/a_b", DIR.resolve("named"), DIR)));
    assertEquals(List.of(), q.matching("http://h/none", null, DIR));
  }

  @Test
  default void theUnfinishedEntryOfAFileIsTheNewestNotCompletedWhateverItsUrl() throws Exception {
    QueueStore q = newQueue();
    QueueEntry older = q.add(List.of("http://h/old"), DIR.resolve("f"), DIR, Map.of(), 0, null, DownloadState.QUEUED);
    QueueEntry newer = q.add(List.of("http://h/new"), DIR.resolve("f"), DIR, Map.of(), 0, null, DownloadState.PAUSED);
    q.add(List.of("http://h/other"), DIR.resolve("g"), DIR, Map.of(), 0, null, DownloadState.QUEUED);
    assertEquals(newer.id(), q.unfinishedWithFile(DIR.resolve("f")).orElseThrow().id());
    q.setState(newer.id(), DownloadState.COMPLETED, null, null);
    assertEquals(older.id(), q.unfinishedWithFile(DIR.resolve("f")).orElseThrow().id(), "a completed entry is finished");
    q.setState(older.id(), DownloadState.FAILED, "gone", "http-status");
    assertEquals(older.id(), q.unfinishedWithFile(DIR.resolve("f")).orElseThrow().id(), "a failed one may go on");
    assertTrue(q.unfinishedWithFile(DIR.resolve("none")).isEmpty());
  }

  /** Eight entries: 0, 2, 4, 6 failed; 1 and 5 queued (5 at priority 3); 3 and 7 paused. */
  private static long[] eightForPages(QueueStore q) {
    long[] ids = new long[8];
    for (int i = 0; i < ids.length; i++) {
      DownloadState state = i % 4 == 3 ? DownloadState.PAUSED : DownloadState.QUEUED;
      ids[i] = q.add(List.of("http://127.0.0.1:9/p" + i), null, DIR, Map.of(), i == 5 ? 3 : 0, null, state).id();
      if (i % 2 == 0) {
        q.setState(ids[i], DownloadState.FAILED, "refused", "network");
      }
    }
    return ids;
  }

  @Test
  default void aPageRunsOldestFirstFromTheStartAndBackwardsFromTheEndAsAria2Does() throws Exception {
    QueueStore q = newQueue();
    long[] ids = eightForPages(q);
    Set<DownloadState> stopped = EnumSet.of(DownloadState.FAILED, DownloadState.COMPLETED);
    assertEquals(List.of(ids[0], ids[2], ids[4], ids[6]), ids(q.page(stopped, false, 0, 10)));
    assertEquals(List.of(ids[2], ids[4]), ids(q.page(stopped, false, 1, 2)));
    assertEquals(List.of(), ids(q.page(stopped, false, 4, 2)));
    assertEquals(List.of(ids[6], ids[4], ids[2]), ids(q.page(stopped, false, -1, 3)));
    assertEquals(List.of(ids[2], ids[0]), ids(q.page(stopped, false, -3, 5)));
    assertEquals(List.of(ids[0]), ids(q.page(stopped, false, -4, 5)));
    assertEquals(List.of(), ids(q.page(stopped, false, -5, 5)));
    assertEquals(List.of(), ids(q.page(stopped, false, 0, 0)));
    assertEquals(List.of(), ids(q.page(Set.of(), false, 0, 10)));
  }

  @Test
  default void aPageInStartOrderPutsHigherPriorityFirstThenOlder() throws Exception {
    QueueStore q = newQueue();
    long[] ids = eightForPages(q);
    Set<DownloadState> waiting = EnumSet.of(DownloadState.QUEUED, DownloadState.PAUSED);
    assertEquals(List.of(ids[5], ids[1], ids[3], ids[7]), ids(q.page(waiting, true, 0, 10)));
    assertEquals(List.of(ids[7], ids[3]), ids(q.page(waiting, true, -1, 2)));
    assertEquals(List.of(ids[5]), ids(q.page(waiting, true, -4, 2)));
    assertEquals(List.of(ids[3], ids[7]), ids(q.page(EnumSet.of(DownloadState.PAUSED), true, 0, 10)));
    q.updatePriority(ids[7], 9);
    assertEquals(List.of(ids[7], ids[5]), ids(q.page(waiting, true, 0, 2)), "a new priority reorders the page");
  }

  @Test
  default void anEntrysUrlsPriorityAndOptionsAreChangedWhoeverHoldsIt() throws Exception {
    StateStore store = stores().open();
    QueueStore q = store.queue();
    QueueEntry e = q.add(List.of("http://h/a"), null, DIR, Map.of("connections", "2"), 0, A, DownloadState.QUEUED);
    QueueStore other = another(store);
    other.updateUrls(e.id(), List.of("http://h/b", "http://m/b"));
    other.updatePriority(e.id(), 7);
    other.updateOptions(e.id(), Map.of("max-download-limit", "1M"));
    QueueEntry changed = q.get(e.id()).orElseThrow();
    assertEquals(List.of("http://h/b", "http://m/b"), changed.urls());
    assertEquals(7, changed.priority());
    assertEquals(Map.of("max-download-limit", "1M"), changed.options());
    assertEquals(A, changed.owner(), "its holder keeps it");
    assertEquals(null, changed.file());
    q.changeUrls(e.id(), List.of("http://h/refreshed"), DIR.resolve("b"));
    QueueEntry refreshed = other.get(e.id()).orElseThrow();
    assertEquals(List.of("http://h/refreshed"), refreshed.urls());
    assertEquals(DIR.resolve("b"), refreshed.file(), "the file the old URL named is pinned");
    assertEquals(List.of(e.id()), ids(other.matching("http://h/refreshed", DIR.resolve("b"), DIR)));
  }

  @Test
  default void anEntrySubmittedAgainIsQueuedAfreshUnderItsNewSubmitter() throws Exception {
    QueueStore q = newQueue();
    long id = q.add(List.of("http://h/a"), null, DIR, Map.of("connections", "2"), 0, A, DownloadState.QUEUED).id();
    q.start(id, A).orElseThrow();
    q.finish(A, new EntryProgress(id, null, 10, 4), DownloadState.FAILED, "refused", "network", EntryRetry.NONE);
    q.requeue(id, List.of("http://h/a2"), Map.of("connections", "4"), 5, B, DownloadState.PAUSED);
    QueueEntry again = q.get(id).orElseThrow();
    assertEquals(DownloadState.PAUSED, again.state());
    assertEquals(List.of("http://h/a2"), again.urls());
    assertEquals(Map.of("connections", "4"), again.options());
    assertEquals(5, again.priority());
    assertEquals(B, again.owner());
    assertEquals(null, again.error());
    assertEquals(null, again.errorKind());
    assertEquals(EntryRetry.NONE, again.retry());
    assertTrue(q.held(again), "its new submitter holds it");
  }

  @Test
  default void aRemovedEntryIsGoneForEveryProcess() throws Exception {
    StateStore store = stores().open();
    QueueStore q = store.queue();
    List<Long> ids = StoreContract.addQueued(q, "r", 3);
    q.remove(ids.get(1));
    QueueStore other = another(store);
    assertTrue(other.get(ids.get(1)).isEmpty());
    assertEquals(List.of(ids.get(0), ids.get(2)), ids(other.all()));
    q.remove(ids.get(1));
    assertEquals(2, other.all().size(), "removing it again changes nothing");
  }
}
