package dev.braid.store.contract;

import dev.braid.store.DownloadState;
import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;
import dev.braid.store.StateStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;

/**
 * What every contract of the store interfaces shares: the stores under test, closed after each
 * test, and the small helpers of their tests. A store's test class implements all the contracts
 * (JUnit runs the interfaces' default methods as its own tests) and says only how to make a new,
 * empty store ({@link #stores}).
 *
 * <p>Owners are named as {@code ProcessOwner} names them, {@code host:pid:start}, of hosts that are
 * not this one: every store counts such an owner as holding what it claimed for a while after
 * its last heartbeat (the SQLite store for 30 s, a server database for its lease), longer than
 * any test here runs.
 */
public interface StoreContract {
  /** A folder the entries name; nothing is written there. */
  Path DIR = Path.of("/tmp/braid-store-contract");
  /** An owner on another machine. */
  String A = "worker-a.example:101:1";
  /** Another owner on another machine. */
  String B = "worker-b.example:202:2";

  /** {@return the fixture that opens this test's stores} */
  StoreFixture stores();

  /** Closes what the test opened. */
  @AfterEach
  default void closeStores() {
    stores().closeAll();
  }

  /**
   * {@return a new, empty store's queue}
   *
   * @throws Exception when the store cannot be made
   */
  default QueueStore newQueue() throws Exception {
    return stores().open().queue();
  }

  /**
   * {@return another process's view of the queue of {@code store}}
   *
   * @param store a store of this test
   */
  default QueueStore another(StateStore store) {
    return stores().another(store).queue();
  }

  /**
   * Adds {@code n} queued entries, without owner, of URLs {@code http://127.0.0.1:9/<prefix><i>}.
   *
   * @param q the queue
   * @param prefix the start of each file name
   * @param n how many
   * @return their ids, in order
   */
  static List<Long> addQueued(QueueStore q, String prefix, int n) {
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ids.add(q.add(List.of("http://127.0.0.1:9/" + prefix + i), null, DIR, Map.of(), 0, null, DownloadState.QUEUED).id());
    }
    return ids;
  }

  /**
   * {@return the ids of {@code entries}, in order}
   *
   * @param entries the entries
   */
  static List<Long> ids(List<QueueEntry> entries) {
    return entries.stream().map(QueueEntry::id).toList();
  }
}
