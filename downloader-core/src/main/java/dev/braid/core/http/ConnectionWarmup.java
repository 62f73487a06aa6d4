package dev.braid.core.http;

import java.io.IOException;
import java.time.Duration;
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
import org.apache.hc.client5.http.io.LeaseRequest;
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
 * ends, whatever the outcome. The tasks run on the executor they are given (the {@code Braid}'s
 * worker threads) and are never interrupted; cancelling closes the sockets of connections still
 * connecting (which ends their connect or handshake at once) and cancels pending leases, so no
 * half-open connection outlives the pass. One that finished before the cancel is the pool's.
 */
public final class ConnectionWarmup {
  /** A warm-up that opens nothing. */
  public static final ConnectionWarmup NONE = new ConnectionWarmup(null, null, null, 0);

  /**
   * How long an unused warm connection stays in the pool. The pool checks a connection idle for
   * more than 2 s before lending it, so one a server closed sooner costs a check, not a request.
   */
  static final TimeValue KEEP_ALIVE = TimeValue.ofSeconds(60);
  /**
   * A lease is free when the count was taken under the caps; this bounds the wait when another
   * download took the last slot meanwhile (then no connection is missing anyway).
   */
  private static final Timeout LEASE_WAIT = Timeout.ofSeconds(1);

  private final PoolingHttpClientConnectionManager pool;
  private final HttpRoute route;
  private final PhaseRecorder recorder;
  private final CountDownLatch settled;
  /** Leases asked for and endpoints connecting: what {@link #cancel} must end. Guarded by {@code this}. */
  private final Set<LeaseRequest> leases = new HashSet<>();
  private final Set<ConnectionEndpoint> connecting = new HashSet<>();
  private boolean cancelled;
  private final AtomicInteger opened = new AtomicInteger();

  private ConnectionWarmup(PoolingHttpClientConnectionManager pool, HttpRoute route, PhaseRecorder recorder, int count) {
    this.pool = pool;
    this.route = route;
    this.recorder = recorder;
    this.settled = new CountDownLatch(count);
  }

  /** Starts {@code count} tasks on {@code executor}; those it refuses (shut down) count as settled. */
  static ConnectionWarmup start(PoolingHttpClientConnectionManager pool, HttpRoute route, int count,
      PhaseRecorder recorder, Executor executor) {
    if (count <= 0) {
      return NONE;
    }
    ConnectionWarmup w = new ConnectionWarmup(pool, route, recorder, count);
    for (int i = 0; i < count; i++) {
      try {
        executor.execute(w::warmOne);
      } catch (RejectedExecutionException e) {
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
   * Waits until every task has settled (opened its connection, failed, or found one idle) or
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
   * Stops the warm-up: tasks not yet started do nothing, pending leases are cancelled, and
   * connections still connecting are closed. Idempotent; safe from any thread.
   */
  public void cancel() {
    List<LeaseRequest> pending;
    List<ConnectionEndpoint> open;
    synchronized (this) {
      if (cancelled || pool == null) {
        return;
      }
      cancelled = true;
      pending = List.copyOf(leases);
      open = List.copyOf(connecting);
    }
    pending.forEach(LeaseRequest::cancel);
    // closing the socket from here ends a blocking connect or handshake on the task's thread
    open.forEach(e -> e.close(CloseMode.IMMEDIATE));
  }

  private void warmOne() {
    LeaseRequest lease = null;
    ConnectionEndpoint endpoint = null;
    try {
      synchronized (this) {
        if (cancelled) {
          return;
        }
        lease = pool.lease(null, route, LEASE_WAIT, null);
        leases.add(lease);
      }
      endpoint = lease.get(LEASE_WAIT);
      synchronized (this) {
        leases.remove(lease);
        if (cancelled) {
          discard(endpoint);
          return;
        }
        connecting.add(endpoint);
      }
      // connected already: another request left an idle connection in the slot; it goes back as it is
      boolean fresh = !endpoint.isConnected();
      if (fresh) {
        // bound: the connect and handshake are timed into the download's metrics like its own
        try (PhaseRecorder.Scope ignored = recorder.bind()) {
          pool.connect(endpoint, null, HttpClientContext.create());
        }
      }
      synchronized (this) {
        connecting.remove(endpoint);
        if (cancelled || !endpoint.isConnected()) {
          discard(endpoint);
        } else {
          pool.release(endpoint, null, KEEP_ALIVE);
          if (fresh) {
            opened.incrementAndGet();
          }
        }
      }
    } catch (IOException | ExecutionException | TimeoutException | RuntimeException e) {
      // a warm connection that fails is not there; the worker that would have used it opens its own
      if (endpoint != null) {
        synchronized (this) {
          connecting.remove(endpoint);
        }
        discard(endpoint);
      }
    } catch (InterruptedException e) {
      // a pooled thread is never interrupted by Braid; pass it on to whoever did
      Thread.currentThread().interrupt();
    } finally {
      if (lease != null) {
        synchronized (this) {
          leases.remove(lease);
        }
      }
      settled.countDown();
    }
  }

  /** Closes a leased endpoint and gives its slot back: how HttpClient discards a connection. */
  private void discard(ConnectionEndpoint endpoint) {
    try {
      endpoint.close(CloseMode.IMMEDIATE);
      pool.release(endpoint, null, TimeValue.ZERO_MILLISECONDS);
    } catch (RuntimeException e) {
      // closed with its pool already (the Braid is closing): nothing is left open
    }
  }
}
