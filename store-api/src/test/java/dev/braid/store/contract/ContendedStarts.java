package dev.braid.store.contract;

import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Owners, each on a view of its own (as separate processes), that try to start the same entries
 * at the same moments: in rounds of a few ids, every owner waits for the others before a round,
 * so all contest each round's ids at once; the scheduler decides only who wins. One thread per
 * owner, ended by {@link #run}.
 */
final class ContendedStarts {
  private static final int ROUND = 5;

  private final List<Long> ids;
  private final List<QueueStore> views;
  private final List<String> owners;
  private final Map<Long, String> startedBy = new ConcurrentHashMap<>();
  private final AtomicInteger twice = new AtomicInteger();
  private final AtomicInteger started = new AtomicInteger();
  private final AtomicInteger refused = new AtomicInteger();

  ContendedStarts(List<Long> ids, List<QueueStore> views, List<String> owners) {
    this.ids = List.copyOf(ids);
    this.views = List.copyOf(views);
    this.owners = List.copyOf(owners);
  }

  /** Runs every owner through every id; returns when all are done, failing on any owner's failure. */
  void run() throws Exception {
    CyclicBarrier round = new CyclicBarrier(views.size());
    ExecutorService pool = Executors.newFixedThreadPool(views.size());
    try {
      List<Future<?>> runs = new ArrayList<>();
      for (int w = 0; w < views.size(); w++) {
        QueueStore q = views.get(w);
        String owner = owners.get(w);
        runs.add(pool.submit(() -> {
          for (int from = 0; from < ids.size(); from += ROUND) {
            round.await(60, TimeUnit.SECONDS);
            for (long id : ids.subList(from, Math.min(from + ROUND, ids.size()))) {
              Optional<QueueEntry> e = q.start(id, owner);
              if (e.isEmpty()) {
                refused.incrementAndGet();
              } else if (startedBy.putIfAbsent(id, owner) != null || !owner.equals(e.get().owner())) {
                twice.incrementAndGet();
              } else {
                started.incrementAndGet();
              }
            }
          }
          return null;
        }));
      }
      for (Future<?> f : runs) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** {@return the starts of an entry another owner had started already} */
  int twice() {
    return twice.get();
  }

  /** {@return the entries started once} */
  int started() {
    return started.get();
  }

  /** {@return the starts refused} */
  int refused() {
    return refused.get();
  }
}
