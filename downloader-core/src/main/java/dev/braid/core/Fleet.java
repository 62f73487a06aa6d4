package dev.braid.core;

import java.time.Instant;
import java.util.List;

/**
 * The processes sharing this engine's store, as the store shows them: each worker with the
 * downloads it drives, and the connections each holds per host under the per-host caps. On a
 * server database (PostgreSQL) that is the fleet of daemons on many machines; on a SQLite file it
 * is the processes of this machine that share it (each keeps its own host grants, so only this
 * one's are listed).
 *
 * @param self this engine's worker name ({@code host:pid:start})
 * @param workers this engine first, then every other worker driving a download or holding a
 *     grant, by name
 * @param grants the connections held now, by host then worker
 */
public record Fleet(String self, List<Worker> workers, List<Grant> grants) {
  /**
   * Copies the lists.
   *
   * @param self this engine's worker name
   * @param workers the workers, this one first
   * @param grants the connections held, by host then worker
   */
  public Fleet {
    workers = List.copyOf(workers);
    grants = List.copyOf(grants);
  }

  /**
   * One process driving downloads from the store.
   *
   * @param name its name, {@code host:pid:start}
   * @param alive whether it still holds its claims (its process runs, or its heartbeat is recent);
   *     a worker that is not still shows its downloads until another takes them over
   * @param heartbeat its latest report on any of its downloads, or null when it drives none
   * @param downloads the ids of the downloads it drives, oldest first
   */
  public record Worker(String name, boolean alive, Instant heartbeat, List<Long> downloads) {
    /**
     * Copies the download ids.
     *
     * @param name its name
     * @param alive whether it still holds its claims
     * @param heartbeat its latest report, or null
     * @param downloads the ids of its downloads
     */
    public Worker {
      downloads = List.copyOf(downloads);
    }
  }

  /**
   * The connections one worker holds to one host.
   *
   * @param host the host, as {@code host:port}
   * @param worker the worker's name
   * @param connections how many
   */
  public record Grant(String host, String worker, int connections) {}
}
