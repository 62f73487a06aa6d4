package dev.braid.testserver;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.URIScheme;
import org.apache.hc.core5.http.impl.BasicEntityDetails;
import org.apache.hc.core5.http.impl.bootstrap.HttpAsyncServer;
import org.apache.hc.core5.http.message.BasicHttpResponse;
import org.apache.hc.core5.http.nio.AsyncServerExchangeHandler;
import org.apache.hc.core5.http.nio.CapacityChannel;
import org.apache.hc.core5.http.nio.DataStreamChannel;
import org.apache.hc.core5.http.nio.ResponseChannel;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.http.protocol.HttpCoreContext;
import org.apache.hc.core5.http2.HttpVersionPolicy;
import org.apache.hc.core5.http2.config.H2Config;
import org.apache.hc.core5.http2.impl.nio.bootstrap.H2ServerBootstrap;
import org.apache.hc.core5.http2.ssl.H2ServerTlsStrategy;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.reactor.IOSession;
import org.apache.hc.core5.reactor.IOSessionListener;
import org.apache.hc.core5.reactor.ListenerEndpoint;

/**
 * An HTTPS server on 127.0.0.1 that speaks HTTP/2, or HTTP/1.1 to a client that asks for it by
 * ALPN (httpcore5-h2's server: the JDK has none). It serves byte ranges of {@link Content}s with
 * the same validators and range/If-Range rules as {@link TestServer} (ETag, Last-Modified, the
 * {@link Resource#onRequest} hook), counts connections, and records each request with the
 * protocol it came over. Over HTTP/2 it sends no Content-Length (the protocol does not require
 * one; a range's length is in its Content-Range). The same server listens on a second, plain
 * port ({@link #plainUrl}), where it takes HTTP/1.1 or HTTP/2 with prior knowledge. Knobs: a
 * rate limit per connection and protocol ({@link #rateLimitPerConnection}), so that tests can make
 * either version the faster one; a connection that stops sending DATA on every stream while it
 * stays open ({@link #stallHttp2Connections}, as lighttpd 1.4.69 does under parallel ranges); and
 * of the {@link Resource}'s knobs, {@link Resource#ignoreRange} (a 200 to a ranged request, as
 * Apache answers an If-Range it deems weak). Body bytes sent are counted per resource
 * ({@link Resource#bodyBytesSent}) when the HTTP/2 layer takes them, that is within the client's
 * flow-control window.
 */
public final class H2TestServer implements AutoCloseable {
  private final HttpAsyncServer server;
  private final int port;
  private final Map<String, Resource> resources = new ConcurrentHashMap<>();
  private final List<RequestRecord> requests = new CopyOnWriteArrayList<>();
  private final List<String> protocols = new CopyOnWriteArrayList<>();
  private final Map<String, Integer> connectionIds = new ConcurrentHashMap<>();
  private final AtomicInteger connections = new AtomicInteger();
  private final Map<String, Long> rates = new ConcurrentHashMap<>();
  private final Map<String, Pacer> pacers = new ConcurrentHashMap<>();
  private final Map<Integer, Long> stallAfter = new ConcurrentHashMap<>();
  private final AtomicInteger stallsLeft = new AtomicInteger();
  private volatile long stallBytes;
  private final Map<Integer, AtomicLong> sentOnConnection = new ConcurrentHashMap<>();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "h2testserver-pacer");
    t.setDaemon(true);
    return t;
  });
  private volatile int plainPort;

  private H2TestServer(HttpAsyncServer server, int port) {
    this.server = server;
    this.port = port;
  }

  /** Starts on an ephemeral port of 127.0.0.1 with {@code certificate}; streams get a 16 MiB window. */
  public static H2TestServer start(TestCertificate certificate) throws IOException {
    H2TestServer[] self = new H2TestServer[1];
    HttpAsyncServer server = H2ServerBootstrap.bootstrap()
        .setCanonicalHostName("127.0.0.1")
        .setIOReactorConfig(IOReactorConfig.custom().setIoThreadCount(2).build())
        .setH2Config(H2Config.custom().setInitialWindowSize(16 << 20).setPushEnabled(false).build())
        .setTlsStrategy(new H2ServerTlsStrategy(certificate.serverContext()))
        .setVersionPolicy(HttpVersionPolicy.NEGOTIATE)
        .setIOSessionListener(new Connections(() -> self[0].connections.incrementAndGet()))
        .register("*", () -> new RangeHandler(self[0]))
        .create();
    server.start();
    try {
      ListenerEndpoint endpoint = server.listen(new InetSocketAddress("127.0.0.1", 0), URIScheme.HTTPS).get();
      self[0] = new H2TestServer(server, ((InetSocketAddress) endpoint.getAddress()).getPort());
      ListenerEndpoint plain = server.listen(new InetSocketAddress("127.0.0.1", 0), URIScheme.HTTP).get();
      self[0].plainPort = ((InetSocketAddress) plain.getAddress()).getPort();
      return self[0];
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      server.close(CloseMode.IMMEDIATE);
      throw new IOException("interrupted while binding", e);
    } catch (ExecutionException e) {
      server.close(CloseMode.IMMEDIATE);
      throw new IOException("cannot bind", e.getCause());
    }
  }

  /** Serves {@code content} at {@code path}; the returned resource takes an ETag, a Last-Modified and a hook. */
  public Resource serve(String path, Content content) {
    Resource r = new Resource(content);
    resources.put(path, r);
    return r;
  }

  /** {@code "https://127.0.0.1:" + port + path}. */
  public String url(String path) {
    return "https://127.0.0.1:" + port + path;
  }

  /** {@code "http://127.0.0.1:" + plainPort + path}: the same resources without TLS. */
  public String plainUrl(String path) {
    return "http://127.0.0.1:" + plainPort + path;
  }

  /**
   * Caps each connection that speaks {@code protocol} ({@code HTTP/1.1} or {@code HTTP/2.0}, as in
   * {@link #protocols()}) at {@code bytesPerSecond} of body, shared by all its streams (0 = none).
   * Applies to responses that start afterwards.
   */
  public H2TestServer rateLimitPerConnection(String protocol, long bytesPerSecond) {
    rates.put(protocol, bytesPerSecond);
    return this;
  }

  /**
   * The next {@code count} connections that speak HTTP/2 stop sending DATA on all their streams,
   * the ones open and any opened later (which still get their heads), once each has sent
   * {@code bodyBytes} of body; they stay open, silent, until the client gives them up.
   */
  public H2TestServer stallHttp2Connections(int count, long bodyBytes) {
    if (count < 0 || bodyBytes < 0) {
      throw new IllegalArgumentException("count and bodyBytes must be >= 0");
    }
    stallBytes = bodyBytes;
    stallsLeft.set(count);
    return this;
  }

  /** TCP connections accepted so far. */
  public int connectionsAccepted() {
    return connections.get();
  }

  /** Every request so far, in arrival order. */
  public List<RequestRecord> requests() {
    return List.copyOf(requests);
  }

  /** The protocol of each request of {@link #requests()}, e.g. {@code HTTP/2.0} or {@code HTTP/1.1}. */
  public List<String> protocols() {
    return List.copyOf(protocols);
  }

  @Override
  public void close() {
    server.close(CloseMode.IMMEDIATE);
    timer.shutdownNow();
  }

  private void record(RequestRecord r, String protocol) {
    requests.add(r);
    protocols.add(protocol);
  }

  /** Whether the connection has stopped sending, by {@link #stallHttp2Connections}. */
  private boolean stalled(int connection) {
    Long after = stallAfter.get(connection);
    return after != null && sentOnConnection.computeIfAbsent(connection, k -> new AtomicLong()).get() >= after;
  }

  private void sent(int connection, long n) {
    sentOnConnection.computeIfAbsent(connection, k -> new AtomicLong()).addAndGet(n);
  }

  private int connectionId(HttpCoreContext context) {
    String remote = String.valueOf(context.getEndpointDetails().getRemoteAddress());
    return connectionIds.computeIfAbsent(remote, k -> {
      int id = connectionIds.size() + 1;
      if (context.getProtocolVersion() != null && context.getProtocolVersion().getMajor() == 2
          && stallsLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        stallAfter.put(id, stallBytes);
      }
      return id;
    });
  }

  /**
   * One connection's schedule under a rate limit: each chunk reserves its slot in time, so the
   * streams of a connection share its rate. Reactor threads call it; synchronized.
   */
  private static final class Pacer {
    private long nextFree = System.nanoTime();

    /** Reserves {@code n} bytes at {@code rate}; returns the nanoseconds to wait before sending them. */
    synchronized long reserve(int n, long rate) {
      long now = System.nanoTime();
      long start = Math.max(now, nextFree);
      nextFree = start + (long) (n * 1e9 / rate);
      return start - now;
    }
  }

  /** Counts accepted connections; nothing else of a session's life matters here. */
  private record Connections(Runnable onConnect) implements IOSessionListener {
    @Override
    public void connected(IOSession session) {
      onConnect.run();
    }

    @Override
    public void startTls(IOSession session) {}

    @Override
    public void inputReady(IOSession session) {}

    @Override
    public void outputReady(IOSession session) {}

    @Override
    public void timeout(IOSession session) {}

    @Override
    public void exception(IOSession session, Exception cause) {}

    @Override
    public void disconnected(IOSession session) {}
  }

  /** One request: 206 with the asked range, 200 with everything, 416, or 404; the body streams from the Content. */
  private static final class RangeHandler implements AsyncServerExchangeHandler {
    private static final int CHUNK = 64 << 10;
    private final H2TestServer owner;
    private final byte[] chunk = new byte[CHUNK];
    private final ByteBuffer pending = ByteBuffer.wrap(chunk).limit(0);
    private volatile Content content;
    private volatile Resource resource;
    private volatile int connection;
    private volatile long next;
    private volatile long end;
    /** The connection's rate limit and schedule, when its protocol has one. */
    private volatile long rate;
    private volatile Pacer pacer;
    /** A paced chunk waits in {@code pending} until then; the timer asks for output again. */
    private volatile long resumeAt;

    RangeHandler(H2TestServer owner) {
      this.owner = owner;
    }

    @Override
    public void handleRequest(HttpRequest request, EntityDetails entity, ResponseChannel channel, HttpContext context)
        throws org.apache.hc.core5.http.HttpException, IOException {
      HttpCoreContext core = HttpCoreContext.cast(context);
      Map<String, String> headers = new java.util.LinkedHashMap<>();
      for (Header h : request.getHeaders()) {
        headers.merge(h.getName().toLowerCase(Locale.ROOT), h.getValue(), (a, b) -> a + ", " + b);
      }
      RequestRecord record = new RequestRecord(owner.connectionId(core), request.getMethod(), request.getPath(),
          headers.get("range"), headers.get("if-range"), Map.copyOf(headers), 0);
      Resource resource = owner.resources.get(request.getPath());
      if (resource == null) {
        owner.record(record, String.valueOf(core.getProtocolVersion()));
        channel.sendResponse(new BasicHttpResponse(404), null, context);
        return;
      }
      Consumer<RequestRecord> hook = resource.onRequest();
      if (hook != null) {
        hook.accept(record);
      }
      String protocol = String.valueOf(core.getProtocolVersion());
      owner.record(record, protocol);
      rate = owner.rates.getOrDefault(protocol, 0L);
      if (rate > 0) {
        pacer = owner.pacers.computeIfAbsent(String.valueOf(core.getEndpointDetails().getRemoteAddress()), k -> new Pacer());
      }
      content = resource.content();
      long size = content.size();
      Instant modified = resource.knobs().lastModified();
      String lastModified = modified == null ? null : Response.httpDate(modified);
      String dateForIfRange = resource.knobs().weakDates() ? null : lastModified;
      RangeRequest range = !resource.knobs().ignoreRange()
          && ResourceResponder.ifRangeMatches(record.ifRange(), resource.knobs().etag(), dateForIfRange)
          ? RangeRequest.parse(record.range(), size) : RangeRequest.WHOLE;
      BasicHttpResponse response = new BasicHttpResponse(
          range instanceof RangeRequest.Span ? 206 : range == RangeRequest.UNSATISFIABLE ? 416 : 200);
      response.addHeader("Accept-Ranges", "bytes");
      if (resource.knobs().etag() != null) {
        response.addHeader("ETag", resource.knobs().etag());
      }
      if (lastModified != null) {
        response.addHeader("Last-Modified", lastModified);
      }
      if (range == RangeRequest.UNSATISFIABLE) {
        response.addHeader("Content-Range", "bytes */" + size);
        channel.sendResponse(response, null, context);
        return;
      }
      long first = range instanceof RangeRequest.Span s ? s.first() : 0;
      long last = range instanceof RangeRequest.Span s ? s.last() : size - 1;
      if (range instanceof RangeRequest.Span) {
        response.addHeader("Content-Range", "bytes " + first + "-" + last + "/" + size);
      }
      next = first;
      end = last + 1;
      this.resource = resource;
      this.connection = record.connectionId();
      channel.sendResponse(response,
          new BasicEntityDetails(end - next, ContentType.APPLICATION_OCTET_STREAM), context);
    }

    @Override
    public void updateCapacity(CapacityChannel capacity) throws IOException {
      capacity.update(Integer.MAX_VALUE);
    }

    @Override
    public void consume(ByteBuffer src) {}

    @Override
    public void streamEnd(List<? extends Header> trailers) {}

    @Override
    public int available() {
      if (content == null || System.nanoTime() < resumeAt || owner.stalled(connection)) {
        return 0;
      }
      return (int) Math.min(Integer.MAX_VALUE, end - next + pending.remaining());
    }

    @Override
    public void produce(DataStreamChannel channel) throws IOException {
      if (content == null) {
        return;
      }
      while (true) {
        if (!pending.hasRemaining()) {
          if (next >= end) {
            channel.endStream();
            return;
          }
          int n = (int) Math.min(CHUNK, end - next);
          content.read(next, chunk, 0, n);
          next += n;
          pending.clear().limit(n);
          long wait = rate > 0 ? pacer.reserve(n, rate) : 0;
          if (wait > 0) {
            resumeAt = System.nanoTime() + wait;
            owner.timer.schedule(channel::requestOutput, wait, TimeUnit.NANOSECONDS);
            return;
          }
        }
        if (System.nanoTime() < resumeAt || owner.stalled(connection)) {
          // a stalled connection asks for no more output: its streams sit until the client leaves
          return;
        }
        int sent = channel.write(pending);
        if (sent == 0) {
          return;
        }
        resource.sent().addBody(sent);
        owner.sent(connection, sent);
      }
    }

    @Override
    public void failed(Exception cause) {}

    @Override
    public void releaseResources() {}
  }
}
