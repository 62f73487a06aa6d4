package dev.braid.testserver;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP/1.1 server on 127.0.0.1 with an ephemeral port, serving registered {@link Resource}s,
 * redirects and fixed statuses, one thread per connection.
 *
 * <pre>{@code
 * try (TestServer server = TestServer.start()) {
 *   Content file = Content.random(10 << 20, 42);
 *   server.serve("/file.bin", file).etag("\"v1\"").dropAfter(100_000, 1);
 *   download(server.url("/file.bin"));
 *   assertEquals(2, server.requests().size());
 * }
 * }</pre>
 */
public final class TestServer implements AutoCloseable {
  private static final long CLOSE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(2);
  /** Listens and accepts; while it is away ({@link #goAway}), connections are refused. */
  private final Listener listener;
  private final Map<String, Route> routes = new ConcurrentHashMap<>();
  private final Set<Connection> open = ConcurrentHashMap.newKeySet();
  // Keyed by arrival number so the list is in arrival order though records are added at send time.
  private final ConcurrentSkipListMap<Long, RequestRecord> requests = new ConcurrentSkipListMap<>();
  private final AtomicLong arrivals = new AtomicLong();
  private final AtomicInteger accepted = new AtomicInteger();
  private final AtomicInteger toDrop = new AtomicInteger();
  private final AtomicInteger dropped = new AtomicInteger();
  private final AtomicInteger concurrent = new AtomicInteger();
  private final AtomicInteger peakConcurrent = new AtomicInteger();
  private final AtomicInteger requestsInFlight = new AtomicInteger();
  private final AtomicInteger peakRequestsInFlight = new AtomicInteger();
  private final AtomicLong bodyBytesSent = new AtomicLong();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final AtomicInteger tlsHandshakes = new AtomicInteger();
  private final AtomicInteger tlsResumed = new AtomicInteger();
  private final List<List<String>> alpnOffers = new CopyOnWriteArrayList<>();
  private final boolean tls;
  /** How long an idle keep-alive connection (and its thread) outlives its last request. */
  private volatile int idleTimeoutMillis = 30_000;

  private TestServer(Listener listener, boolean tls) {
    this.listener = listener;
    this.tls = tls;
  }

  /** Binds 127.0.0.1 on an ephemeral port and starts accepting. */
  public static TestServer start() throws IOException {
    return start(ServerSocket::new, false);
  }

  /**
   * Like {@link #start()}, but over TLS with {@code certificate}: URLs are {@code https://}, and
   * the server counts handshakes and how many of them resumed a session.
   */
  public static TestServer startTls(TestCertificate certificate) throws IOException {
    return start(() -> certificate.serverContext().getServerSocketFactory().createServerSocket(), true);
  }

  private static TestServer start(Callable<ServerSocket> sockets, boolean tls) throws IOException {
    TestServer server = new TestServer(new Listener(sockets), tls);
    server.listener.start(server::accept);
    return server;
  }

  /** The port bound; the same after {@link #goAway}. */
  public int port() {
    return listener.port();
  }

  /**
   * The server goes away for {@code d}, as a host that went down: it stops listening (new
   * connections are refused), drops every open connection mid-answer, and listens again on the
   * same port once {@code d} has passed (a thread of its own brings it back; {@link #close()}
   * stops it). Registered resources and counters stay.
   */
  public void goAway(Duration d) throws IOException {
    Objects.requireNonNull(d, "d");
    if (closed.get()) {
      throw new IllegalStateException("the server is closed");
    }
    listener.goAway(d, CLOSE_WAIT_NANOS);
    List.copyOf(open).forEach(Connection::abort);
  }

  /** {@return whether the server is away ({@link #goAway}) now} */
  public boolean isAway() {
    return listener.isAway();
  }

  /** {@code "http://127.0.0.1:" + port() + path} ({@code https} for a TLS server). */
  public String url(String path) {
    return (tls ? "https" : "http") + "://127.0.0.1:" + port() + path;
  }

  /** TLS handshakes completed (0 for a plain server). */
  public int tlsHandshakes() {
    return tlsHandshakes.get();
  }

  /** Of those, the ones that resumed an earlier session instead of a full handshake. */
  public int tlsResumed() {
    return tlsResumed.get();
  }

  /**
   * What each TLS client that used ALPN offered, in handshake order (e.g. {@code [h2]}); this
   * server chooses none of it and speaks HTTP/1.1.
   */
  public List<List<String>> alpnOffers() {
    return List.copyOf(alpnOffers);
  }

  void alpnOffered(List<String> protocols) {
    alpnOffers.add(List.copyOf(protocols));
  }

  void handshakeDone(boolean resumed) {
    tlsHandshakes.incrementAndGet();
    if (resumed) {
      tlsResumed.incrementAndGet();
    }
  }

  /** Serves {@code content} at {@code path} (replacing whatever was there) and returns its knobs. */
  public Resource serve(String path, Content content) {
    Resource resource = new Resource(content);
    routes.put(checkPath(path), new ResourceResponder(resource));
    return resource;
  }

  /** Answers {@code fromPath} with a 3xx {@code status} and {@code Location: location} (relative or absolute). */
  public void redirect(String fromPath, String location, int status) {
    redirect(fromPath, location, status, null);
  }

  /** As {@link #redirect(String, String, int)}, with a {@code Set-Cookie: setCookie} header (null for none). */
  public void redirect(String fromPath, String location, int status, String setCookie) {
    if (status < 300 || status > 399) {
      throw new IllegalArgumentException("not a redirect status: " + status);
    }
    routes.put(checkPath(fromPath), new Route.Fixed(status, Objects.requireNonNull(location, "location"), setCookie));
  }

  /** Answers {@code path} with {@code status} and a one-line text body, e.g. 404, 403 or 500. */
  public void respond(String path, int status) {
    if (status < 100 || status > 599) {
      throw new IllegalArgumentException("not an HTTP status: " + status);
    }
    routes.put(checkPath(path), new Route.Fixed(status, null, null));
  }

  /** The requests answered so far (including ones whose body is still being sent), in arrival order. */
  public List<RequestRecord> requests() {
    return List.copyOf(requests.values());
  }

  /** Forgets the requests recorded so far. */
  public void clearRequests() {
    requests.clear();
  }

  /**
   * Closes keep-alive connections idle this long, as servers do (Apache's default is 5 s); the
   * close reaches a client that pooled the connection only when it next uses or checks it.
   */
  public void idleTimeout(Duration timeout) {
    idleTimeoutMillis = (int) Math.max(1, timeout.toMillis());
  }

  int idleTimeoutMillis() {
    return idleTimeoutMillis;
  }

  /** Connections accepted since start. */
  public int connectionsAccepted() {
    return accepted.get();
  }

  /**
   * Closes each of the next {@code n} connections as soon as it is accepted, before TLS or any
   * byte: a server turning connections away. They count in {@link #connectionsAccepted()}.
   */
  public void dropNextConnections(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("n < 0: " + n);
    }
    toDrop.set(n);
  }

  /** Connections closed at once by {@link #dropNextConnections}. */
  public int connectionsDropped() {
    return dropped.get();
  }

  /** Connections currently open (accepted and not yet closed by either side). */
  public int openConnections() {
    return concurrent.get();
  }

  /** The most connections that were open at once. */
  public int peakConcurrentConnections() {
    return peakConcurrent.get();
  }

  /**
   * The most requests being answered at once (from the parsed request head to the response's last
   * byte, or the client leaving): connections at work, not idle keep-alive ones. A client's
   * per-host cap on connections in use is judged by this.
   */
  public int peakConcurrentRequests() {
    return peakRequestsInFlight.get();
  }

  void requestStarted() {
    peakRequestsInFlight.accumulateAndGet(requestsInFlight.incrementAndGet(), Math::max);
  }

  void requestEnded() {
    requestsInFlight.decrementAndGet();
  }

  /** Body bytes of all resources written to sockets (fixed-status and redirect bodies excluded). */
  public long bodyBytesSent() {
    return bodyBytesSent.get();
  }

  /**
   * Stops accepting, closes every client socket (also mid-body or mid-stall) and waits up to about
   * two seconds for all threads to end. Idempotent.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    long deadline = System.nanoTime() + CLOSE_WAIT_NANOS;
    // the acceptor goes first so that no connection is registered after the snapshot below
    listener.close(CLOSE_WAIT_NANOS);
    try {
      List<Connection> snapshot = List.copyOf(open);
      snapshot.forEach(Connection::abort);
      for (Connection c : snapshot) {
        c.join(deadline);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  boolean isClosed() {
    return closed.get();
  }

  Route route(String path) {
    return routes.getOrDefault(path, Route.NOT_FOUND);
  }

  long nextArrival() {
    return arrivals.getAndIncrement();
  }

  void record(long arrival, RequestRecord record) {
    requests.put(arrival, record);
  }

  AtomicLong bodyBytesCounter() {
    return bodyBytesSent;
  }

  void connectionEnded(Connection connection) {
    if (open.remove(connection)) {
      concurrent.decrementAndGet();
    }
  }

  /** A connection the listener accepted (on its thread): dropped at once if asked, else served on a thread of its own. */
  private void accept(Socket socket) {
    int id = accepted.incrementAndGet();
    if (toDrop.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      dropped.incrementAndGet();
      closeQuietly(socket);
      return;
    }
    Connection connection = new Connection(this, socket, id);
    open.add(connection);
    peakConcurrent.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
    connection.start();
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // it is gone either way
    }
  }

  private static String checkPath(String path) {
    if (path == null || !path.startsWith("/")) {
      throw new IllegalArgumentException("path must start with '/': " + path);
    }
    return path;
  }
}
