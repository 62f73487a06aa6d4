package dev.braid.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.state.Store;
import dev.braid.store.ChangeMark;
import dev.braid.store.DownloadState;
import dev.braid.store.EntryProgress;
import dev.braid.store.EntryRetry;
import dev.braid.store.NewEntry;
import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;
import dev.braid.store.StateStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A queue entry's request headers as both stores keep them, through the store interface alone:
 * written with the entry, read by another process (a fleet's other worker, a restarted daemon),
 * replaced, dropped, gone with the entry, and never part of what reads of entries return.
 */
class QueueHeadersContractTest {
  private static final Path DIR = Path.of("/tmp/headers");
  private static final String COOKIE = "session=c00kie-s3cret";
  private static PostgresCluster cluster;
  @TempDir static Path work;
  private final List<StateStore> opened = new ArrayList<>();

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = PostgresCluster.start();
  }

  @AfterAll
  static void stopCluster() throws Exception {
    cluster.close();
  }

  @AfterEach
  void closeStores() {
    opened.forEach(StateStore::close);
  }

  /** Each store kind as a way to open two processes' views of one new store. */
  static Stream<Arguments> stores() {
    return Stream.of(Arguments.of("sqlite"), Arguments.of("postgres"));
  }

  /** A new store of {@code kind}: a supplier of its processes' views (each opened anew, as another process's). */
  private Supplier<QueueStore> store(String kind) throws Exception {
    String location = kind.equals("sqlite") ? work.resolve(System.nanoTime() + ".db").toString()
        : cluster.locationWithPassword(cluster.newDatabase());
    return () -> {
      StateStore s = kind.equals("sqlite") ? Store.open(Path.of(location)) : PostgresStore.open(location);
      opened.add(s);
      return s.queue();
    };
  }

  @ParameterizedTest
  @MethodSource("stores")
  void headersWrittenWithTheEntryAreReadByAnotherProcessAndNoReadOfEntriesCarriesThem(String kind) throws Exception {
    Supplier<QueueStore> store = store(kind);
    QueueStore submitter = store.get();
    ChangeMark before = submitter.mark();
    Map<String, String> headers = Map.of("Cookie", COOKIE, "Referer", "https://example.com/page", "User-Agent", "Browser/1");
    QueueEntry e = submitter.addAll(List.of(new NewEntry(List.of("http://127.0.0.1/f"), DIR.resolve("f"), DIR,
        Map.of("connections", "2"), 0, null, DownloadState.QUEUED, headers))).get(0);
    QueueEntry plain = submitter.add(List.of("http://127.0.0.1/g"), null, DIR, Map.of(), 0, null, DownloadState.QUEUED);

    QueueStore worker = store.get();
    assertEquals(headers, worker.headers(e.id()));
    assertEquals(Map.of(), worker.headers(plain.id()));
    // whatever shows entries (lists, pages, the feed, a start) shows no header value
    List<Object> reads = new ArrayList<>();
    reads.add(worker.get(e.id()).orElseThrow());
    reads.add(worker.all());
    reads.add(worker.page(EnumSet.allOf(DownloadState.class), true, 0, 10));
    reads.add(worker.changedBetween(before.latestChange(), worker.mark().latestChange()));
    reads.add(worker.matching("http://127.0.0.1/f", DIR.resolve("f"), DIR));
    reads.add(worker.start(e.id(), "worker-1").orElseThrow());
    for (Object r : reads) {
      assertFalse(r.toString().contains("c00kie"), () -> kind + ": " + r);
    }
  }

  @ParameterizedTest
  @MethodSource("stores")
  void headersAreReplacedDroppedAndGoWithTheirEntry(String kind) throws Exception {
    Supplier<QueueStore> store = store(kind);
    QueueStore q = store.get();
    long id = q.add(List.of("http://127.0.0.1/f"), null, DIR, Map.of(), 0, null, DownloadState.PAUSED).id();
    q.setHeaders(id, Map.of("Cookie", COOKIE, "Referer", "https://example.com/"));
    q.setHeaders(id, Map.of("Cookie", "session=fresh"));
    assertEquals(Map.of("Cookie", "session=fresh"), store.get().headers(id), "replaced, not merged");
    q.setHeaders(id, Map.of());
    assertEquals(Map.of(), store.get().headers(id));

    q.setHeaders(id, Map.of("Cookie", COOKIE));
    q.remove(id);
    assertEquals(Map.of(), store.get().headers(id), "gone with the entry");
    // an entry removed meanwhile (by another process): nothing to store, and no failure
    q.setHeaders(id, Map.of("Cookie", COOKIE));
    assertEquals(Map.of(), q.headers(id));
    assertTrue(q.get(id).isEmpty());
  }

  @ParameterizedTest
  @MethodSource("stores")
  void aFailedRunKeepsItsHeadersAndACompletedOneForgetsThemAtItsEnd(String kind) throws Exception {
    Supplier<QueueStore> store = store(kind);
    QueueStore q = store.get();
    long id = q.addAll(List.of(new NewEntry(List.of("http://127.0.0.1/f"), DIR.resolve("f"), DIR, Map.of(), 0, null,
        DownloadState.QUEUED, Map.of("Cookie", COOKIE)))).get(0).id();
    EntryProgress progress = new EntryProgress(id, DIR.resolve("f"), 10, 5);
    q.start(id, "worker-1").orElseThrow();
    q.finish("worker-1", progress, DownloadState.FAILED, "403", "http-status", EntryRetry.NONE);
    assertEquals(Map.of("Cookie", COOKIE), store.get().headers(id), "a failed download may be resumed with them");
    q.setState(id, DownloadState.QUEUED, null, null);
    q.start(id, "worker-1").orElseThrow();
    q.finish("worker-1", new EntryProgress(id, DIR.resolve("f"), 10, 10), DownloadState.COMPLETED, null, null, EntryRetry.NONE);
    assertEquals(Map.of(), store.get().headers(id), "a completed download sends no more requests");
  }
}
