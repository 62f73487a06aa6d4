package dev.braid.core.internal.http;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.io.ConnectionEndpoint;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * Connections opened ahead of one download's ranges, while its probe is in flight. Each task
 * leases a slot of the pool for the route, connects it through the pool manager (DNS, TCP, SOCKS,
 * TLS: the path a request's own connection takes, so the same route and the same session cache)
 * and releases it idle and reusable: the workers' first requests then lease a connection that is
 * already open. A warm connection that fails is simply not there; nothing here fails a download.
 *
 * <p>Ownership: the download's driver starts a warm-up and {@link #cancel cancels} it when its pass
 * ends, whatever the outcome. The connects run on the executor they are given (the {@code Braid}'s
 * worker threads) and are never interrupted; cancelling closes the sockets of connections still
 * connecting (which ends their connect or handshake at once), so no half-open connection outlives
 * the pass. One handed to the pool before the cancel is the pool's, closed with it.
 */
public final class ConnectionWarmup {
  /** A warm-up that opens nothing. */
  public static final ConnectionWarmup NONE = new ConnectionWarmup(null, null, null, RequestProxy.ENGINE, 0);

  /**
   * How long an unused warm connection may stay in the pool (the idle evictor closes it sooner,
   * after {@code idleConnectionTimeout}). The pool checks a connection idle for
   * {@link HttpTransport#VALIDATE_AFTER} before lending it, so one a server closed meanwhile costs
   * a check, not a request.
   */
  static final TimeValue KEEP_ALIVE = TimeValue.ofSeconds(60);
  /** Leases are taken on the download's driver thread before its probe: they must not keep it waiting. */
  private static final Timeout LEASE_WAIT = Timeout.ofMilliseconds(50);

  private final PoolingHttpClientConnectionManager pool;
  private final HttpRoute route;
  private final PhaseRecorder recorder;
  /** The download's proxy choice: the pool state of the warm connections, so only its requests get them. */
  private final RequestProxy proxy;
  private final CountDownLatch settled;
  /** Endpoints leased and not yet handed back: what {@link #cancel} must close. Guarded by {@code this}. */
  private final Set<ConnectionEndpoint> held = new HashSet<>();
  private final AtomicInteger opened = new AtomicInteger();
  private boolean cancelled;

  private ConnectionWarmup(PoolingHttpClientConnectionManager pool, HttpRoute route, PhaseRecorder recorder,
      RequestProxy proxy, int count) {
    this.pool = pool;
    this.route = route;
    this.recorder = recorder;
    this.proxy = proxy;
    this.settled = new CountDownLatch(count);
  }

  /**
   * Leases {@code count} slots for {@code route} on the calling thread, then connects each on
   * {@code executor}. Every slot is leased before any connect starts: a lease after a sibling
   * had released its connection would be lent that one and open nothing. A lease is immediate while
   * the pool has room, which the caller checked; when another request took the room meanwhile,
   * fewer connections are warmed rather than the caller kept waiting.
   */
  static ConnectionWarmup start(PoolingHttpClientConnectionManager pool, HttpRoute route, int count,
      PhaseRecorder recorder, Executor executor, RequestProxy proxy) {
    if (count <= 0) {
      return NONE;
    }
    ConnectionWarmup w = new ConnectionWarmup(pool, route, recorder, proxy, count);
    List<ConnectionEndpoint> leased = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      ConnectionEndpoint endpoint = w.lease();
      if (endpoint == null) {
        w.settled.countDown();
      } else {
        leased.add(endpoint);
      }
    }
    for (ConnectionEndpoint endpoint : leased) {
      try {
        executor.execute(() -> w.connect(endpoint));
      } catch (RejectedExecutionException e) {
        // the Braid is closing
        w.giveBack(endpoint, false);
        w.settled.countDown();
      }
    }
    return w;
  }

  /** The connections this warm-up opened and left in the pool so far. */
  public int opened() {
    return opened.get();
  }

  /**
   * Waits until every connection has settled (opened, failed, or found open already) or
   * {@code max} has passed. Returns whether all settled. An interrupt ends the wait early and
   * stays set.
   */
  public boolean awaitSettled(Duration max) {
    try {
      return settled.await(max.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Stops the warm-up: connections still connecting are closed (which ends a blocking connect or
   * handshake on the task's thread at once), and tasks not yet run open nothing. Connections
   * already handed to the pool stay there. Idempotent; safe from any thread.
   */
  public void cancel() {
    List<ConnectionEndpoint> open;
    synchronized (this) {
      if (cancelled || pool == null) {
        return;
      }
      cancelled = true;
      open = List.copyOf(held);
    }
    open.forEach(e -> e.close(CloseMode.IMMEDIATE));
  }

  private ConnectionEndpoint lease() {
    try {
      ConnectionEndpoint endpoint = pool.lease(null, route, LEASE_WAIT, proxy).get(LEASE_WAIT);
      synchronized (this) {
        held.add(endpoint);
      }
      return endpoint;
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private void connect(ConnectionEndpoint endpoint) {
    try {
      // connected already: a lease raced a request that left an idle connection; it goes back as it is
      boolean fresh = !endpoint.isConnected();
      if (fresh && !isCancelled()) {
        // bound: the connect and handshake are timed into the download's metrics like its own
        try (PhaseRecorder.Scope ignored = recorder.bind(); RequestProxy.Scope sockets = proxy.bind()) {
          pool.connect(endpoint, null, HttpClientContext.create());
        }
      }
      if (giveBack(endpoint, true) && fresh) {
        opened.incrementAndGet();
      }
    } catch (IOException | RuntimeException e) {
      // a warm connection that fails is not there; the worker that would have used it opens its own
      giveBack(endpoint, false);
    } finally {
      settled.countDown();
    }
  }

  private synchronized boolean isCancelled() {
    return cancelled;
  }

  /**
   * Hands a leased endpoint back: idle and reusable when it is {@code usable}, open, and the
   * warm-up still runs, else closed and its slot freed (how HttpClient discards a connection).
   * Returns whether it went back open.
   */
  private boolean giveBack(ConnectionEndpoint endpoint, boolean usable) {
    synchronized (this) {
      if (!held.remove(endpoint)) {
        return false;
      }
      try {
        if (usable && !cancelled && endpoint.isConnected()) {
          pool.release(endpoint, proxy, KEEP_ALIVE);
          return true;
        }
        endpoint.close(CloseMode.IMMEDIATE);
        pool.release(endpoint, proxy, TimeValue.ZERO_MILLISECONDS);
      } catch (RuntimeException e) {
        // closed with its pool already (the Braid is closing): nothing is left open
      }
      return false;
    }
  }
}
