package dev.braid.core.schedule;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * The connections a {@code Braid} may hold open: in total and per host, shared by all its
 * downloads. A worker holds one permit of each while it runs; the adaptive controller's target
 * is a wish that this budget can refuse.
 */
public final class ConnectionBudget {
  private final Semaphore total;
  private final int capacity;
  private final int perHost;
  private final ConcurrentHashMap<String, Semaphore> hosts = new ConcurrentHashMap<>();

  public ConnectionBudget(int total, int perHost) {
    this.total = new Semaphore(total);
    this.capacity = total;
    this.perHost = perHost;
  }

  /** Takes a connection to {@code host} ({@code host:port}) if both budgets allow one now. */
  boolean tryAcquire(String host) {
    if (!total.tryAcquire()) {
      return false;
    }
    if (!hosts.computeIfAbsent(host, h -> new Semaphore(perHost)).tryAcquire()) {
      total.release();
      return false;
    }
    return true;
  }

  /** Connections held open right now, across all hosts. */
  public int inUse() {
    return capacity - total.availablePermits();
  }

  /** How many connections to {@code host} both budgets would grant right now (a snapshot). */
  int available(String host) {
    Semaphore h = hosts.get(host);
    return Math.min(total.availablePermits(), h == null ? perHost : h.availablePermits());
  }

  void release(String host) {
    hosts.get(host).release();
    total.release();
  }
}
