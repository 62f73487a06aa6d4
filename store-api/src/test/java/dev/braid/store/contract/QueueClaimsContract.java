package dev.braid.store.contract;

import static dev.braid.store.contract.StoreContract.addQueued;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.store.DownloadState;
import dev.braid.store.EntryProgress;
import dev.braid.store.EntryRetry;
import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;
import dev.braid.store.StateStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link QueueStore}'s claims: who may start an entry, what a heartbeat keeps and hears, and how
 * a run ends. That a claim lapses once its owner is gone is each store's own rule (the SQLite
 * store's process table, a server database's lease) and tested with the store.
 */
public interface QueueClaimsContract extends StoreContract {
  @Test
  default void startingAnEntryClaimsAndActivatesItOnlyWhenItMayRun() throws Exception {
    StateStore store = stores().open();
    QueueStore q = store.queue();
    QueueStore other = another(store);
    QueueEntry free = q.add(List.of("http://h/a"), null, DIR, Map.of(), 0, null, DownloadState.QUEUED);
    QueueEntry started = q.start(free.id(), A).orElseThrow();
    assertEquals(DownloadState.ACTIVE, started.state());
    assertEquals(A, started.owner());
    assertEquals(started, other.get(free.id()).orElseThrow(), "what it returns is what it stored");
    assertTrue(q.held(started));

    QueueEntry paused = q.add(List.of("http://h/b"), null, DIR, Map.of(), 0, A, DownloadState.PAUSED);
    assertTrue(q.start(paused.id(), A).isEmpty(), "a paused entry started");
    assertEquals(null, q.get(paused.id()).orElseThrow().owner(), "a claim on an entry that may not run is given up");

    QueueEntry theirs = q.add(List.of("http://h/c"), null, DIR, Map.of(), 0, B, DownloadState.QUEUED);
    assertTrue(other.start(theirs.id(), A).isEmpty(), "started while its submitter holds it");
    QueueEntry still = q.get(theirs.id()).orElseThrow();
    assertEquals(B, still.owner());
    assertEquals(DownloadState.QUEUED, still.state());
    assertEquals(B, q.start(theirs.id(), B).orElseThrow().owner(), "its submitter starts it");
    assertTrue(q.start(free.id() + 1000, A).isEmpty(), "an entry that does not exist");
  }

  @Test
  default void aClaimIsRefusedWhileAnotherHoldsTheEntryAndReleasedOnlyByItsHolder() throws Exception {
    StateStore store = stores().open();
    QueueStore q = store.queue();
    QueueStore other = another(store);
    long id = addQueued(q, "c", 1).get(0);
    QueueEntry unowned = q.get(id).orElseThrow();
    assertFalse(q.held(unowned), "an entry without owner is held");
    assertTrue(q.claim(id, A));
    assertTrue(q.claim(id, A), "its holder claims it again");
    assertFalse(other.claim(id, B), "claimed from its holder");
    other.release(id, B);
    assertEquals(A, q.get(id).orElseThrow().owner(), "released by an owner that does not hold it");
    assertTrue(other.held(other.get(id).orElseThrow()));
    q.release(id, A);
    assertEquals(null, q.get(id).orElseThrow().owner());
    assertTrue(other.claim(id, B), "free once released");
    assertFalse(q.claim(id + 1000, A), "an entry that does not exist");
  }

  @Test
  default void twoOwnersRacingForTheSameEntriesNeverBothStartOne() throws Exception {
    StateStore store = stores().open();
    List<Long> ids = addQueued(store.queue(), "race", 60);
    QueueStore a = another(store);
    QueueStore b = another(store);
    ContendedStarts race = new ContendedStarts(ids, List.of(a, b), List.of(A, B));
    race.run();
    assertEquals(0, race.twice(), "entries started by both owners");
    assertEquals(ids.size(), race.started(), "entries started by one of them");
    assertEquals(ids.size(), race.refused(), "each entry refused to the other owner");
    assertEquals(Map.of(DownloadState.ACTIVE, (long) ids.size()), store.queue().census().counts());
  }

  @Test
  default void aHeartbeatRecordsProgressAndHearsWhatOthersAsked() throws Exception {
    StateStore store = stores().open();
    QueueStore a = store.queue();
    QueueStore b = another(store);
    List<Long> ids = addQueued(a, "h", 3);
    ids.forEach(id -> a.start(id, A).orElseThrow());
    b.setState(ids.get(1), DownloadState.PAUSED, null, null);
    b.remove(ids.get(2));
    Map<Long, DownloadState> held = a.heartbeat(A, List.of(new EntryProgress(ids.get(0), DIR.resolve("f0"), 100, 50)));
    assertEquals(Map.of(ids.get(0), DownloadState.ACTIVE, ids.get(1), DownloadState.PAUSED), held);
    assertTrue(b.start(ids.get(0), B).isEmpty(), "taken from a live holder");
    QueueEntry e = b.get(ids.get(0)).orElseThrow();
    assertEquals(50, e.done());
    assertEquals(100, e.length());
    assertEquals(DIR.resolve("f0"), e.target());
    assertTrue(b.held(e));
    assertEquals(Map.of(), b.heartbeat(B, List.of(new EntryProgress(ids.get(0), Path.of("/elsewhere"), 100, 99))),
        "an owner holding nothing");
    assertEquals(50, a.get(ids.get(0)).orElseThrow().done(), "progress recorded by an owner that does not hold the entry");
  }

  @Test
  default void aRunsEndRecordsItsProgressAndStateAndLetsTheEntryGo() throws Exception {
    StateStore store = stores().open();
    QueueStore q = store.queue();
    List<Long> ids = addQueued(q, "e", 2);
    q.start(ids.get(0), A).orElseThrow();
    QueueEntry failed = q.finish(A, new EntryProgress(ids.get(0), DIR.resolve("e0"), 10, 4), DownloadState.FAILED, "403",
        "http-status", EntryRetry.NONE).orElseThrow();
    assertEquals(DownloadState.FAILED, failed.state());
    assertEquals("403", failed.error());
    assertEquals("http-status", failed.errorKind());
    assertEquals(4, failed.done());
    assertEquals(DIR.resolve("e0"), failed.target());
    assertEquals(null, failed.owner());
    assertEquals(failed, another(store).get(ids.get(0)).orElseThrow(), "what it returns is what it stored");

    // a removal during the run: the remover decided the state; the run's end keeps it
    q.start(ids.get(1), A).orElseThrow();
    q.setState(ids.get(1), DownloadState.PAUSED, null, null);
    QueueEntry paused = q.finish(A, new EntryProgress(ids.get(1), null, 10, 6), null, "ignored", "ignored", EntryRetry.NONE)
        .orElseThrow();
    assertEquals(DownloadState.PAUSED, paused.state());
    assertEquals(null, paused.error());
    assertEquals(6, paused.done());
    q.remove(ids.get(1));
    assertTrue(q.finish(A, new EntryProgress(ids.get(1), null, 10, 10), DownloadState.COMPLETED, null, null, EntryRetry.NONE)
        .isEmpty(), "the end of a removed entry's run");
  }

  @Test
  default void aCompletionIsRecordedOnceAndALateEndOfAnotherOwnerChangesNothing() throws Exception {
    StateStore store = stores().open();
    QueueStore a = store.queue();
    QueueStore b = another(store);
    List<Long> ids = addQueued(a, "once", 2);
    a.start(ids.get(0), A).orElseThrow();
    assertEquals(DownloadState.COMPLETED, a.finish(A, new EntryProgress(ids.get(0), null, 3, 3), DownloadState.COMPLETED, null,
        null, EntryRetry.NONE).orElseThrow().state());
    assertFalse(b.runnable(10, 0).contains(ids.get(0)));
    assertTrue(b.start(ids.get(0), B).isEmpty(), "a completed entry started again");
    assertTrue(b.claim(ids.get(0), B), "nobody holds a completed entry");
    QueueEntry after = b.finish(B, new EntryProgress(ids.get(0), null, 3, 0), DownloadState.FAILED, "late", "io", EntryRetry.NONE)
        .orElseThrow();
    assertEquals(DownloadState.COMPLETED, after.state(), "a completion overwritten");
    assertEquals(3, after.done());

    // A gave its claim up (its run ended elsewhere), B started the entry; A's late end is not B's
    a.claim(ids.get(1), A);
    a.release(ids.get(1), A);
    b.start(ids.get(1), B).orElseThrow();
    QueueEntry late = a.finish(A, new EntryProgress(ids.get(1), null, 10, 10), DownloadState.COMPLETED, null, null,
        EntryRetry.NONE).orElseThrow();
    assertEquals(DownloadState.ACTIVE, late.state(), "another owner's end changed the entry");
    assertEquals(B, late.owner());
    assertEquals(0, late.done());
  }

  @Test
  default void aWaitingEntryRunsOnlyOnceItsTimeHasComeAndAPersonsActionEndsTheWait() throws Exception {
    QueueStore q = newQueue();
    List<Long> ids = addQueued(q, "w", 2);
    long later = System.currentTimeMillis() + 60_000;
    long since = System.currentTimeMillis() - 5_000;
    q.start(ids.get(0), A).orElseThrow();
    QueueEntry waiting = q.finish(A, new EntryProgress(ids.get(0), null, 10, 4), DownloadState.QUEUED, "refused",
        "NetworkException", new EntryRetry(later, 2, since)).orElseThrow();
    assertEquals(DownloadState.QUEUED, waiting.state());
    assertEquals(new EntryRetry(later, 2, since), waiting.retry());
    assertEquals("refused", waiting.error(), "the last error is kept while it waits");
    q.start(ids.get(1), A).orElseThrow();
    q.finish(A, new EntryProgress(ids.get(1), null, 10, 4), DownloadState.QUEUED, "503", "HttpStatusException:503",
        new EntryRetry(System.currentTimeMillis() - 1, 3, since));
    assertEquals(List.of(ids.get(1)), q.runnable(10, 0), "only the entry whose time has come");
    assertTrue(q.start(ids.get(0), B).isEmpty(), "started before its time");
    QueueEntry due = q.start(ids.get(1), B).orElseThrow();
    assertEquals(new EntryRetry(0, 3, since), due.retry(), "its wait ends, its count stays for the next failure");
    q.setState(ids.get(0), DownloadState.QUEUED, null, null);
    assertEquals(EntryRetry.NONE, q.get(ids.get(0)).orElseThrow().retry(), "a person's resume ends the wait");
    // the entry B runs may be listed too (the SQLite store cannot tell a live owner in SQL): start refuses it
    assertEquals(ids.get(0), q.runnable(10, 0).get(0), "runnable again");
    assertTrue(q.start(ids.get(1), A).isEmpty(), "started while B runs it");
    QueueEntry done = q.finish(B, new EntryProgress(ids.get(1), null, 10, 10), DownloadState.COMPLETED, null, null,
        EntryRetry.NONE).orElseThrow();
    assertEquals(EntryRetry.NONE, done.retry());
  }

  @Test
  default void runnableEntriesComeInStartOrderAndSettledOnesNever() throws Exception {
    QueueStore q = newQueue();
    List<Long> ids = addQueued(q, "o", 5);
    q.updatePriority(ids.get(3), 2);
    q.setState(ids.get(1), DownloadState.PAUSED, null, null);
    q.setState(ids.get(2), DownloadState.FAILED, "x", "io");
    q.setState(ids.get(4), DownloadState.COMPLETED, null, null);
    assertEquals(List.of(ids.get(3), ids.get(0)), q.runnable(10, 0));
    assertEquals(List.of(ids.get(0)), q.runnable(10, 1), "after an offset");
    assertEquals(List.of(ids.get(3)), q.runnable(1, 0), "at most the limit");
  }
}
