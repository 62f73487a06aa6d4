package dev.braid.core.internal.transfer;

import dev.braid.core.rules.Rules;
import dev.braid.store.HostGrants;
import dev.braid.store.StoreException;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.ToIntFunction;

/**
 * The connections a {@code Braid} may hold open: in total and per host, shared by all its
 * downloads. A worker holds one permit of each while it runs; the adaptive controller's target
 * is a wish that this budget can refuse.
 *
 * <p>The per-host cap (a per-host rule's, or the one for all hosts) is also asked of the store's
 * {@link HostGrants}, under this process's owner name: the SQLite store's grants are this
 * process's, a server database's are shared by every worker on it, so the cap holds across a
 * fleet. A grant the store cannot give (it is full, or unreachable) is a refusal like a full local
 * budget: the caller tries again at its next step.
 */
public final class ConnectionBudget {
  /** How often a probe waiting for a connection asks again (each ask is a store call for a shared one). */
  private static final Duration PROBE_WAIT_STEP = Duration.ofMillis(25);

  private final Semaphore total;
  private final int capacity;
  /** The cap of one host by its {@code host:port} key: a per-host rule's, or the one for all hosts. */
  private final ToIntFunction<String> perHost;
  private final HostGrants grants;
  private final String owner;
  private final ConcurrentHashMap<String, Semaphore> hosts = new ConcurrentHashMap<>();

  /**
   * A budget of {@code total} connections, {@code perHost} to one host but those a rule of
   * {@code rules} gives a {@code max-connections-per-host}; the per-host caps granted by
   * {@code grants} to {@code owner} as well.
   */
  public ConnectionBudget(int total, int perHost, Rules rules, HostGrants grants, String owner) {
    this.total = new Semaphore(total);
    this.capacity = total;
    this.perHost = host -> rules.forHost(hostName(host)).maxConnectionsPerHost().orElse(perHost);
    this.grants = grants;
    this.owner = owner;
  }

  /** Takes a connection to {@code host} ({@code host:port}) if the budgets and the store's grants allow one now. */
  boolean tryAcquire(String host) {
    if (!total.tryAcquire()) {
      return false;
    }
    Semaphore local = hosts.computeIfAbsent(host, h -> new Semaphore(perHost.applyAsInt(h)));
    if (!local.tryAcquire()) {
      total.release();
      return false;
    }
    if (!granted(host)) {
      local.release();
      total.release();
      return false;
    }
    return true;
  }

  /**
   * Takes a connection to {@code host} for a download's probe, waiting while the budget is full;
   * false when {@code control} halted (a pause) first. The probe is a request like any other: a
   * fleet's cap counts it.
   */
  boolean acquireWaiting(String host, PassControl control) {
    while (!tryAcquire(host)) {
      if (control.halted()) {
        return false;
      }
      control.sleep(PROBE_WAIT_STEP, () -> false);
    }
    return true;
  }

  private boolean granted(String host) {
    try {
      return grants.acquire(host, owner, perHost.applyAsInt(host));
    } catch (StoreException e) {
      return false;
    }
  }

  /** The host of a {@code host:port} key (an IPv6 address keeps no brackets in a URI's host). */
  private static String hostName(String hostAndPort) {
    int colon = hostAndPort.lastIndexOf(':');
    return colon < 0 ? hostAndPort : hostAndPort.substring(0, colon);
  }

  /** Connections held open right now, across all hosts. */
  public int inUse() {
    return capacity - total.availablePermits();
  }

  /** How many connections to {@code host} this process's budgets would grant right now (a snapshot; the store may grant fewer). */
  int available(String host) {
    Semaphore h = hosts.get(host);
    return Math.min(total.availablePermits(), h == null ? perHost.applyAsInt(host) : h.availablePermits());
  }

  void release(String host) {
    try {
      grants.release(host, owner);
    } catch (StoreException e) {
      // a grant the store did not hear back lapses with its lease
    }
    hosts.get(host).release();
    total.release();
  }
}
