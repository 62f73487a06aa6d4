package dev.braid.rpc;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.braid.client.ClientException;
import dev.braid.client.LocalClient;
import dev.braid.core.Braid;
import dev.braid.core.Registration;
import io.undertow.Handlers;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import io.undertow.server.handlers.GracefulShutdownHandler;
import io.undertow.util.Headers;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.xnio.Options;

/**
 * aria2's JSON-RPC in front of one {@link Braid}, on {@code /jsonrpc} over HTTP and WebSocket on
 * one port, and Braid's web console on {@code /} ({@link ConsoleFiles}), both behind a
 * {@link HostCheck}; all of it over TLS when given a {@link ServerCertificate}. A call carries the
 * secret or an API key ({@link KeyFile}, {@link Scope}). Start it with {@link #start}; {@link #close()} stops it (the {@code Braid}
 * stays open: its owner closes it after).
 *
 * <p>Limits, so that no client can run the process out of memory or of threads: connections
 * ({@link RpcSettings.Builder#maxConnections}), a request's head ({@value #MAX_HEAD_BYTES} bytes,
 * within the request timeout) and body ({@link BodyReader}), idle connections (the idle timeout),
 * WebSockets ({@link SocketEndpoint}).
 *
 * <p>Threads: Undertow's, owned here: one I/O thread (connections, timers) and up to four
 * worker threads that run the calls (they read and write the state database; an
 * {@link OutOfMemoryError} in a call goes to the thread's uncaught-exception handler); the local
 * socket's, if asked for ({@link LocalEndpoint}). Braid's event
 * thread sends the notifications. {@link #close()} lets calls in flight finish (bounded),
 * closes the WebSockets and ends every thread of the server.
 */
public final class RpcServer implements AutoCloseable {
  private static final int WORKERS = 4;
  /**
   * Undertow and XNIO log their versions at start through java.util.logging; a daemon's stderr
   * is for its own lines. Held here: the logging framework keeps its loggers only weakly.
   */
  private static final List<Logger> QUIET = List.of(Logger.getLogger("io.undertow"), Logger.getLogger("org.xnio"));

  static {
    QUIET.forEach(l -> l.setLevel(Level.WARNING));
  }

  /** How long {@link #close()} lets calls in flight answer: a daemon must stop within 5 s of SIGTERM, engine included. */
  private static final Duration DRAIN = Duration.ofSeconds(1);
  /** The largest request head (request line and headers); Undertow's default, 1 MiB, is what a slow sender could pin per connection. */
  static final int MAX_HEAD_BYTES = 16 * 1024;
  /** Bytes of request bodies held at once past each body's free part ({@link BodyReader}), for every connection together. */
  static final long BODY_BUDGET_BYTES = 16L << 20;

  private final Undertow undertow;
  private final GracefulShutdownHandler graceful;
  private final SocketEndpoint sockets;
  private final LocalEndpoint local;
  private final Registration events;
  private final int port;
  private final List<InetSocketAddress> addresses;
  private final boolean secure;

  private RpcServer(Undertow undertow, GracefulShutdownHandler graceful, SocketEndpoint sockets, LocalEndpoint local,
      Registration events, int port, List<InetSocketAddress> addresses, boolean secure) {
    this.secure = secure;
    this.undertow = undertow;
    this.graceful = graceful;
    this.sockets = sockets;
    this.local = local;
    this.events = events;
    this.port = port;
    this.addresses = addresses;
  }

  /**
   * Listens as {@code settings} say and serves {@code braid}'s queue; {@code shutdownAsked} runs
   * (on a worker thread, once per call) when a client calls {@code aria2.shutdown}.
   *
   * @throws IOException when the port cannot be bound (another program listens there)
   */
  public static RpcServer start(Braid braid, RpcSettings settings, Runnable shutdownAsked) throws IOException {
    ObjectMapper mapper = Dispatcher.mapper();
    CurrentKeys keys = settings.keys() == null ? null : new CurrentKeys(new KeyFile(settings.keys(), Clock.systemUTC()));
    Dispatcher dispatcher = new Dispatcher(mapper, new Gate(new Access(new Secret(settings.secret()), keys),
        new GuessLimiter(settings.nanoClock())));
    SocketEndpoint sockets = new SocketEndpoint(dispatcher, settings.maxRequestBytes(), settings.unauthorizedDelay(),
        settings.requestTimeout());
    LocalEndpoint[] local = new LocalEndpoint[1];
    Notifier notifier = new Notifier(mapper, json -> {
      sockets.broadcast(json);
      if (local[0] != null) {
        local[0].broadcast(json);
      }
    });
    FolderPolicy folders = new FolderPolicy(settings.downloadFolder(), settings.allowedFolders());
    RemovedResults removed = new RemovedResults();
    QueueView queue = new QueueView(braid, removed);
    int port = settings.port() == 0 ? freePort() : settings.port();
    PositionMethods positions = new PositionMethods(queue);
    AddOptions adding = new AddOptions(folders, settings.rules(), braid::outageRetry);
    new AddMethods(braid, adding, positions).addTo(dispatcher);
    new MetalinkMethods(braid, adding).addTo(dispatcher);
    new QueryMethods(queue).addTo(dispatcher);
    new ControlMethods(braid, queue, removed, notifier).addTo(dispatcher);
    new OptionMethods(braid, queue, folders, settings.rules(), port).addTo(dispatcher);
    new SessionMethods(shutdownAsked).addTo(dispatcher);
    positions.addTo(dispatcher);
    new UriMethods(queue).addTo(dispatcher);
    // the client port, served over this engine as a face's own engine serves it, writing into the daemon's folders only
    LocalClient engineSide = new LocalClient(braid, settings.rules(), folder -> {
      try {
        folders.dir(folder.toString());
      } catch (RpcException e) {
        throw new ClientException(ClientException.Reason.INVALID, e.getMessage(), e);
      }
    });
    new BraidMethods(braid, queue, engineSide, mapper).addTo(dispatcher);

    Cors cors = new Cors(settings.allowedOrigins());
    BodyReader bodies = new BodyReader(settings.maxRequestBytes(),
        Math.max(BODY_BUDGET_BYTES, settings.maxRequestBytes()), settings.requestTimeout());
    HttpEndpoint http = new HttpEndpoint(dispatcher, mapper, cors, settings.unauthorizedDelay(), bodies);
    HttpHandler upgrade = Handlers.websocket(sockets);
    // a page the upgrade is refused to cannot displace a socket (SocketEndpoint#admit): its check comes first
    HttpHandler websocket = cors.upgrades(ex -> {
      if (sockets.admit()) {
        upgrade.handleRequest(ex);
      } else {
        ex.setStatusCode(503);
        ex.endExchange();
      }
    });
    HttpHandler jsonrpc = ex -> {
      // only a WebSocket upgrade: a client's offer of h2c (the JDK's HttpClient sends one) is plain HTTP here
      if ("websocket".equalsIgnoreCase(ex.getRequestHeaders().getFirst(Headers.UPGRADE))) {
        websocket.handleRequest(ex);
      } else {
        http.handleRequest(ex);
      }
    };
    // the console's files on every other path; the Host check and the headers in front of both
    HttpHandler routes = Handlers.path(ConsoleFiles.handler()).addExactPath("/jsonrpc", jsonrpc);
    GracefulShutdownHandler graceful = Handlers.gracefulShutdown(
        new HostCheck(new SecurityHeaders(routes), settings.listenAll(),
            settings.listenAll() ? HostCheck.machineNames() : Set.of()));
    List<InetSocketAddress> addresses = addresses(settings.listenAll(), port);
    Undertow.Builder b = Undertow.builder().setIoThreads(1).setWorkerThreads(WORKERS)
        // no MAX_ENTITY_SIZE: BodyReader holds bodies to the limit; Undertow's own check of a
        // chunked body prints a stack trace to stderr for every one past it, a log any client could fill
        .setServerOption(UndertowOptions.MAX_HEADER_SIZE, MAX_HEAD_BYTES)
        // a head that has begun must be whole within the request timeout; a connection with no
        // request in progress (a new one, or between keep-alive requests) lives for the idle timeout
        .setServerOption(UndertowOptions.REQUEST_PARSE_TIMEOUT, (int) settings.requestTimeout().toMillis())
        .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, (int) settings.idleTimeout().toMillis())
        // at the cap XNIO stops accepting: the rest wait in the kernel's queue, costing this process nothing
        .setSocketOption(Options.CONNECTION_HIGH_WATER, settings.maxConnections())
        .setSocketOption(Options.CONNECTION_LOW_WATER, settings.maxConnections())
        .setHandler(graceful);
    ServerCertificate tls = settings.certificate();
    for (InetSocketAddress a : addresses) {
      if (tls == null) {
        b.addHttpListener(a.getPort(), a.getAddress().getHostAddress());
      } else {
        b.addHttpsListener(a.getPort(), a.getAddress().getHostAddress(), tls.context());
      }
    }
    Undertow undertow = b.build();
    try {
      undertow.start();
    } catch (RuntimeException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw new IOException("cannot listen on port " + port + ": " + cause.getMessage(), cause);
    }
    local[0] = localEndpoint(settings, dispatcher);
    Registration notifications = braid.listen(notifier, Duration.ofSeconds(1));
    // progress is not what it records: a sample a day is as good as none
    Registration removals = braid.listen(removed, Duration.ofDays(1));
    Registration events = () -> {
      notifications.close();
      removals.close();
    };
    return new RpcServer(undertow, graceful, sockets, local[0], events, port, addresses, tls != null);
  }

  /**
   * The local socket the settings ask for, or null: one that cannot be bound (a path longer than
   * the system's ~100 bytes, a folder not writable) leaves clients the TCP port, which serves the same.
   */
  private static LocalEndpoint localEndpoint(RpcSettings settings, Dispatcher dispatcher) {
    if (settings.localSocket() == null) {
      return null;
    }
    try {
      return LocalEndpoint.start(settings.localSocket(), dispatcher, settings.maxRequestBytes(),
          settings.unauthorizedDelay());
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** The Unix domain socket served beside the port ({@link RpcSettings.Builder#localSocket}), if it could be bound. */
  public Optional<Path> localSocket() {
    return local == null ? Optional.empty() : Optional.of(local.path());
  }

  /** The addresses listened on: 127.0.0.1 and ::1 (where the machine has IPv6), or every interface. */
  private static List<InetSocketAddress> addresses(boolean all, int port) throws IOException {
    List<InetSocketAddress> out = new ArrayList<>();
    if (all) {
      // "::" takes IPv4 too on a dual-stack machine
      out.add(new InetSocketAddress(hasIpv6() ? "::" : "0.0.0.0", port));
    } else {
      out.add(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port));
      if (hasIpv6()) {
        out.add(new InetSocketAddress(InetAddress.getByName("::1"), port));
      }
    }
    return List.copyOf(out);
  }

  private static boolean hasIpv6() {
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress(InetAddress.getByName("::1"), 0));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** A port free on loopback now, for port 0: both loopback listeners need the same one. */
  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return s.getLocalPort();
    }
  }

  /** The port listened on (the one picked when 0 was asked for). */
  public int port() {
    return port;
  }

  /** "https" when it serves TLS ({@link RpcSettings.Builder#certificate}), else "http". */
  public String scheme() {
    return secure ? "https" : "http";
  }

  /** The addresses listened on. */
  public List<InetSocketAddress> addresses() {
    return addresses;
  }

  /** Stops taking calls, lets those in flight answer (up to 1 s), closes the WebSockets and the server's threads. */
  @Override
  public void close() {
    events.close();
    graceful.shutdown();
    try {
      graceful.awaitShutdown(DRAIN.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    sockets.closeAll();
    if (local != null) {
      local.close();
    }
    undertow.stop();
  }
}
