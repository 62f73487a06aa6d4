package dev.braid.core.schedule;

import dev.braid.core.rules.Rules;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.ToIntFunction;

/**
 * The connections a {@code Braid} may hold open: in total and per host, shared by all its
 * downloads. A worker holds one permit of each while it runs; the adaptive controller's target
 * is a wish that this budget can refuse.
 */
public final class ConnectionBudget {
  private final Semaphore total;
  private final int capacity;
  /** The cap of one host by its {@code host:port} key: a per-host rule's, or the one for all hosts. */
  private final ToIntFunction<String> perHost;
  private final ConcurrentHashMap<String, Semaphore> hosts = new ConcurrentHashMap<>();

  public ConnectionBudget(int total, int perHost) {
    this(total, host -> perHost);
  }

  /** {@code perHost} for every host but those a rule of {@code rules} gives a {@code max-connections-per-host}. */
  public ConnectionBudget(int total, int perHost, Rules rules) {
    this(total, host -> rules.forHost(hostName(host)).maxConnectionsPerHost().orElse(perHost));
  }

  /** {@code perHost} gives the cap of each {@code host:port}; it is asked once per host. */
  private ConnectionBudget(int total, ToIntFunction<String> perHost) {
    this.total = new Semaphore(total);
    this.capacity = total;
    this.perHost = perHost;
  }

  /** Takes a connection to {@code host} ({@code host:port}) if both budgets allow one now. */
  boolean tryAcquire(String host) {
    if (!total.tryAcquire()) {
      return false;
    }
    if (!hosts.computeIfAbsent(host, h -> new Semaphore(perHost.applyAsInt(h))).tryAcquire()) {
      total.release();
      return false;
    }
    return true;
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

  /** How many connections to {@code host} both budgets would grant right now (a snapshot). */
  int available(String host) {
    Semaphore h = hosts.get(host);
    return Math.min(total.availablePermits(), h == null ? perHost.applyAsInt(host) : h.availablePermits());
  }

  void release(String host) {
    hosts.get(host).release();
    total.release();
  }
}
