package dev.braid.store.contract;

import static dev.braid.store.contract.StoreContract.addQueued;
import static dev.braid.store.contract.StoreContract.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.store.ChangeMark;
import dev.braid.store.DownloadState;
import dev.braid.store.QueueCensus;
import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;
import dev.braid.store.StateStore;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * {@link QueueStore}'s change feed and census, as a process following a queue that others change
 * sees them. Whether a store can tell its own writes from others' ({@link ChangeMark#othersWrote}
 * false) is its own: one that cannot answers true, which the contract allows.
 */
public interface QueueFeedContract extends StoreContract {
  @Test
  default void theMarkTellsTheNewestIdAndThatOthersWrote() throws Exception {
    StateStore store = stores().open();
    QueueStore mine = store.queue();
    ChangeMark first = mine.mark();
    assertTrue(first.othersWrote(), "the first look cannot know what came before");
    assertEquals(0, first.newestId());
    long id = addQueued(another(store), "m", 2).get(1);
    ChangeMark after = mine.mark();
    assertTrue(after.othersWrote(), "another process's adds");
    assertEquals(id, after.newestId());
    assertTrue(after.latestChange() > first.latestChange());
  }

  @Test
  default void everyChangeOfAnEntryIsSeenOnceInCommitOrderAsItNowStands() throws Exception {
    StateStore store = stores().open();
    QueueStore q = store.queue();
    QueueStore theirs = another(store);
    long start = q.mark().latestChange();
    List<Long> added = addQueued(q, "f", 2);
    long a = added.get(0);
    long b = added.get(1);
    long afterAdds = q.mark().latestChange();
    assertEquals(List.of(a, b), ids(q.changedBetween(start, afterAdds)));
    assertEquals(List.of(), q.changedBetween(afterAdds, afterAdds));

    theirs.setState(a, DownloadState.PAUSED, null, null);
    long afterPause = q.mark().latestChange();
    assertTrue(afterPause > afterAdds);
    List<QueueEntry> changed = q.changedBetween(afterAdds, afterPause);
    assertEquals(List.of(a), ids(changed), "only the entry another process changed");
    assertEquals(DownloadState.PAUSED, changed.get(0).state(), "as it now stands");

    q.setState(b, DownloadState.PAUSED, null, null);
    long afterB = q.mark().latestChange();
    theirs.updatePriority(a, 5);
    long afterA = q.mark().latestChange();
    assertEquals(List.of(b, a), ids(q.changedBetween(afterPause, afterA)), "oldest change first");
    assertEquals(List.of(b), ids(q.changedBetween(afterPause, afterB)), "a change after the bound waits for the next look");
    assertEquals(5, q.changedBetween(afterB, afterA).get(0).priority());

    theirs.remove(a);
    long afterRemoval = q.mark().latestChange();
    assertTrue(afterRemoval > afterA, "a removal takes a number past every other");
    assertEquals(List.of(a), q.removedBetween(afterA, afterRemoval));
    assertEquals(List.of(), q.changedBetween(afterA, afterRemoval));
    assertEquals(List.of(), q.removedBetween(afterRemoval, afterRemoval));
    q.setState(b, DownloadState.QUEUED, null, null);
    long last = q.mark().latestChange();
    assertEquals(List.of(b), ids(q.changedBetween(afterRemoval, last)), "numbers go on past it");
    assertEquals(List.of(), q.removedBetween(afterRemoval, last));
  }

  @Test
  default void theCensusCountsEachStateAndReadsTheActiveEntries() throws Exception {
    QueueStore q = newQueue();
    List<Long> ids = addQueued(q, "n", 5);
    q.start(ids.get(0), A).orElseThrow();
    q.start(ids.get(3), A).orElseThrow();
    q.setState(ids.get(1), DownloadState.PAUSED, null, null);
    q.setState(ids.get(2), DownloadState.COMPLETED, null, null);
    QueueCensus c = q.census();
    assertEquals(java.util.Map.of(DownloadState.ACTIVE, 2L, DownloadState.PAUSED, 1L, DownloadState.COMPLETED, 1L,
        DownloadState.QUEUED, 1L), c.counts());
    assertEquals(List.of(ids.get(0), ids.get(3)), ids(c.active()), "oldest first");
  }

  @Test
  default void aCensusWhileAnotherProcessStartsAndEndsEntriesSeesEachOnce() throws Exception {
    StateStore store = stores().open();
    QueueStore counter = store.queue();
    QueueStore mover = another(store);
    List<Long> ids = addQueued(counter, "s", 10);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    AtomicBoolean stop = new AtomicBoolean();
    try {
      // the count and the active entries read apart (two snapshots) disagree while entries move
      Future<?> flips = pool.submit(() -> {
        for (int n = 0; !stop.get(); n++) {
          mover.setState(ids.get(n % ids.size()), (n / ids.size()) % 2 == 0 ? DownloadState.ACTIVE : DownloadState.COMPLETED,
              null, null);
        }
      });
      for (int look = 0; look < 300; look++) {
        QueueCensus c = counter.census();
        assertEquals(c.counts().getOrDefault(DownloadState.ACTIVE, 0L), (long) c.active().size(),
            "look " + look + ": counted " + c.counts() + " but read " + c.active().size() + " active");
        assertEquals(ids.size(), c.counts().values().stream().mapToLong(Long::longValue).sum());
      }
      stop.set(true);
      flips.get(20, TimeUnit.SECONDS);
    } finally {
      stop.set(true);
      pool.shutdownNow();
    }
  }
}
