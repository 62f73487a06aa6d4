package dev.braid.core.internal.transfer;

import dev.braid.core.DownloadRequest;
import dev.braid.core.internal.http.ConnectionWarmup;
import dev.braid.core.internal.plan.SegmentTable;
import java.net.URI;
import java.time.Duration;
import java.util.OptionalLong;

/**
 * The connections one pass warms for its workers: those opening while the probe is in flight,
 * and the rest once the length bounds them. It owns both warm-ups; the driver thread sets them,
 * and a halt on any thread cancels them, so the fields are volatile and each set checks for a
 * halt that came before it.
 */
final class PassWarmup {
  private final DownloadRequest request;
  private final HostConnections hosts;
  private final PassControl control;
  /** Connections opening for this pass's workers while the probe is in flight; cancelled by a halt or when the pass ends. */
  private volatile ConnectionWarmup warmup = ConnectionWarmup.NONE;
  /** Connections opening after the probe's head, once the length bounds them; stopped as {@link #warmup}. */
  private volatile ConnectionWarmup warmRest = ConnectionWarmup.NONE;

  /** @param request the pass's request: its URL and split size */
  PassWarmup(DownloadRequest request, HostConnections hosts, PassControl control) {
    this.request = request;
    this.hosts = hosts;
    this.control = control;
  }

  /** Starts warming before the probe, so connections open while it waits for its answer. */
  void beforeProbe(OptionalLong remaining, long probeTakes) {
    warmup = hosts.warmFor(request.uri(), remaining, probeTakes);
    if (control.halted()) {
      // a halt that came before the warm-up was set did not see it (both fields are volatile)
      warmup.cancel();
    }
  }

  /** Stops what the probe's warm-up still opens (the probe failed). */
  void cancelProbe() {
    warmup.cancel();
  }

  /** Stops both warm-ups: a halt, or the end of the pass. */
  void cancel() {
    warmup.cancel();
    warmRest.cancel();
  }

  /**
   * Before the other workers send their first requests: lets connections still warming finish, so
   * those requests lease them rather than open more beside them, then, with the length known,
   * warms the rest the file can use beyond the probe's request ({@link WarmCount}) and lets those
   * finish too. Each wait at most as long as the probe took ({@code probeNanos}): a connection of
   * a worker's own, opened now, would not be ready sooner than one that began with the probe and
   * is still not ready after that long. Without use for more than one connection, the warm-up
   * stops here.
   *
   * @param remaining the bytes the pass still has to fetch
   */
  void awaitBeforeWorkers(WorkerPool pool, SegmentTable table, URI finalUri, long probeTakes, long probeNanos,
      long remaining) {
    if (pool.target() <= 1 || !table.hasWork(pool.cutMin())) {
      warmup.cancel();
      return;
    }
    Duration bound = Duration.ofNanos(probeNanos);
    warmup.awaitSettled(bound);
    if (warmup == ConnectionWarmup.NONE) {
      // nothing was warmed before the probe (a new host, HTTP/2, a proxy, an idle connection):
      // the workers open their own at once, as without a warm-up
      return;
    }
    int usable = remaining <= 0 ? 0 : WarmCount.usable(remaining, probeTakes, pool.target(), request.minSplitSize());
    warmRest = hosts.warmRest(finalUri, usable);
    if (control.halted()) {
      // a halt that came before the field was set did not see it
      warmRest.cancel();
    }
    warmRest.awaitSettled(bound);
  }
}
