package dev.braid.cli.mcp;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.DownloadEvent;
import dev.braid.client.DownloadView;
import dev.braid.core.Registration;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * {@code wait_for_download}'s waits: each until its download stops (completes, fails or is
 * paused), bounded. One {@link BraidClient#follow} for the server's life hears every download's
 * events, from before any tool added one (a follower that starts later would not know a download
 * it never saw start, and a pause of it would pass unheard); each event wakes the waits of its
 * download, which read the state again.
 *
 * <p>Threads: the client's follow thread only releases the waits; each wait runs on its caller's
 * thread (the SDK's worker for the call), and an interrupt ends it early with the download as it stands.
 */
final class DownloadWaits implements AutoCloseable {
  private final BraidClient client;
  /** The waits of each download, each woken by a permit. */
  private final Map<Long, Set<Semaphore>> waiting = new ConcurrentHashMap<>();
  private final Registration following;

  /** Waits on {@code client}'s downloads; follows them from now until {@link #close()}. */
  DownloadWaits(BraidClient client) throws ClientException {
    this.client = client;
    this.following = client.follow(this::heard);
  }

  /** What the wait saw last, and whether the download had stopped by then. */
  record Outcome(DownloadView download, boolean finished) {}

  /**
   * Waits for download {@code id}; empty when it is not (or no longer) in the queue.
   *
   * @param id the download
   * @param timeout the longest wait
   */
  Optional<Outcome> await(long id, Duration timeout) throws ClientException {
    Semaphore heard = new Semaphore(0);
    long deadline = System.nanoTime() + timeout.toNanos();
    waiting.compute(id, (k, set) -> {
      Set<Semaphore> s = set == null ? ConcurrentHashMap.newKeySet() : set;
      s.add(heard);
      return s;
    });
    try {
      // registered before the first read: an end between the read and the wait is not missed
      while (true) {
        Optional<DownloadView> d = client.download(id);
        if (d.isEmpty() || d.get().state().settled()) {
          return d.map(v -> new Outcome(v, true));
        }
        long left = deadline - System.nanoTime();
        if (left <= 0 || !heard.tryAcquire(left, TimeUnit.NANOSECONDS)) {
          return now(id);
        }
        // several events at once: one read
        heard.drainPermits();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return now(id);
    } finally {
      waiting.computeIfPresent(id, (k, set) -> {
        set.remove(heard);
        return set.isEmpty() ? null : set;
      });
    }
  }

  /** Stops following. */
  @Override
  public void close() {
    following.close();
  }

  /** The client's follow thread: wakes the waits of the event's download. */
  private void heard(DownloadEvent e) {
    Set<Semaphore> waits = waiting.get(e.id());
    if (waits != null) {
      waits.forEach(Semaphore::release);
    }
  }

  private Optional<Outcome> now(long id) throws ClientException {
    return client.download(id).map(d -> new Outcome(d, d.state().settled()));
  }
}
