import dev.braid.store.DownloadState;
import dev.braid.store.EntryProgress;
import dev.braid.store.QueueStore;
import dev.braid.store.StateStore;
import dev.braid.store.StoreLocation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * bench/fleet.sh's claim benchmark: the store's own claim path without any download. Adds
 * ENTRIES queued entries, then WORKERS threads, each with a store of its own (its own
 * connections, as a worker process has), do what the engine's loop does for each entry: read a
 * page of runnable ids, start (claim) one, finish it as completed. Prints adds/s and claims/s.
 * Usage: java -cp braid.jar ClaimBench.java LOCATION ENTRIES WORKERS
 */
public class ClaimBench {
  public static void main(String[] args) throws Exception {
    String location = args[0];
    int entries = Integer.parseInt(args[1]);
    int workers = Integer.parseInt(args[2]);
    try (StateStore setup = StoreLocation.open(location)) {
      long t0 = System.nanoTime();
      for (int i = 0; i < entries; i++) {
        setup.queue().add(List.of("http://127.0.0.1:1/f" + i + ".bin"), null, Path.of("/tmp/claimbench"), Map.of(), 0,
            null, DownloadState.QUEUED);
      }
      double addSeconds = (System.nanoTime() - t0) / 1e9;
      AtomicLong claimed = new AtomicLong();
      List<Thread> threads = new ArrayList<>();
      List<StateStore> stores = new ArrayList<>();
      for (int w = 0; w < workers; w++) {
        stores.add(StoreLocation.open(location));
      }
      long t1 = System.nanoTime();
      for (int w = 0; w < workers; w++) {
        QueueStore q = stores.get(w).queue();
        // another machine's owner name: the SQLite store judges it by heartbeat, as it would a real one
        String owner = "bench-worker-" + w + ":" + (w + 1) + ":1";
        Thread t = new Thread(() -> {
          for (List<Long> page = q.runnable(64, 0); !page.isEmpty(); page = q.runnable(64, 0)) {
            for (long id : page) {
              if (q.start(id, owner).isPresent()) {
                q.finish(owner, new EntryProgress(id, null, 1, 1), DownloadState.COMPLETED, null, null);
                claimed.incrementAndGet();
              }
            }
          }
        });
        threads.add(t);
        t.start();
      }
      for (Thread t : threads) {
        t.join();
      }
      double claimSeconds = (System.nanoTime() - t1) / 1e9;
      for (StateStore s : stores) {
        s.close();
      }
      System.out.printf("%d %.1f %.1f%n", claimed.get(), entries / addSeconds, claimed.get() / claimSeconds);
    }
  }
}
