package dev.braid.core.internal.http;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import org.apache.hc.client5.http.ClientProtocolException;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.RedirectException;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.config.TlsConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.DefaultHttpClientConnectionOperator;
import org.apache.hc.client5.http.impl.io.ManagedHttpClientConnectionFactory;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.client5.http.routing.HttpRoutePlanner;
import org.apache.hc.client5.http.routing.RoutingSupport;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpStatus;
import org.apache.hc.core5.http.URIScheme;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.config.RegistryBuilder;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.pool.PoolReusePolicy;
import org.apache.hc.core5.pool.PoolStats;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * The shared blocking HTTP client: one per {@code Braid}, used by every worker thread at once.
 * Blocking I/O on one thread per connection was measured as fast as the async client for ranged
 * downloads, and it lets a worker stop exactly at a segment boundary by aborting its own request.
 *
 * <p>Every phase of a connection passes through a piece of ours: the DNS cache, the socket
 * factory (connect), the TLS strategy (handshake) and the request executor (first byte), each
 * timing into the calling download's {@link PhaseRecorder}.
 *
 * <p>When HTTP/2 is allowed, a request that asks for it goes to {@link H2Transport} instead, the
 * async HTTP/2 client, built on first use and sharing the TLS context (one session cache) and
 * the DNS cache with the classic client.
 */
public final class HttpTransport implements AutoCloseable {
  /** A failed look-up is remembered this long: retries of a typo'd host do not each ask DNS. */
  private static final Duration NEGATIVE_DNS_TTL = Duration.ofSeconds(5);
  /** A pooled connection idle this long is checked before reuse (httpclient5 5.6 checks after 2 s). */
  static final TimeValue VALIDATE_AFTER = TimeValue.ofMilliseconds(500);
  /**
   * Bounds on a response head, pinned here rather than left to the library: httpcore5 5.4 defaults
   * to 8 KiB a line and 100 lines, 5.1 had no limit at all. 32 KiB a line leaves room for long
   * signed Location URLs and cookie headers; past either bound the request fails with a
   * MessageConstraintException instead of the head growing in memory. Worst case held per
   * connection: 100 lines of 32 KiB.
   */
  static final int MAX_HEADER_LINE = 32 * 1024;
  static final int MAX_HEADER_COUNT = 100;

  private final CloseableHttpClient client;
  private final PoolingHttpClientConnectionManager pool;
  private final ProxyPlan proxies;
  private final boolean http2;
  private final HttpSettings settings;
  private final LazyTlsStrategy tls;
  private final CachingDnsResolver dns;
  private final HttpProxyAuth proxyAuth;
  private final HttpRoutePlanner routes;
  /** The HTTP/2 client, built by the first request that goes over HTTP/2 (its reactor is a thread). */
  private H2Transport h2;
  private boolean closed;

  /** An HTTP/1.1 transport. */
  public HttpTransport(HttpSettings settings) {
    this(settings, false);
  }

  /**
   * @param http2 whether requests may go over HTTP/2: https ones that go to the server directly
   *     (not through a proxy) and ask for it, as streams sharing one connection per host
   */
  public HttpTransport(HttpSettings settings, boolean http2) {
    this.settings = settings;
    this.http2 = http2;
    tls = new LazyTlsStrategy(settings.tls(), settings.insecure());
    dns = new CachingDnsResolver(settings.resolver(), settings.dnsTtl(), NEGATIVE_DNS_TTL, settings.ticker());
    var operator = new DefaultHttpClientConnectionOperator(new TimedSockets(settings.proxies()), null, dns,
        RegistryBuilder.<TlsSocketStrategy>create().register(URIScheme.HTTPS.id, tls).build());
    // LIFO hands out the most recently used connection: the warmest one, and the others age out
    pool = new PoolingHttpClientConnectionManager(operator, PoolConcurrencyPolicy.STRICT, PoolReusePolicy.LIFO,
        TimeValue.NEG_ONE_MILLISECOND, ManagedHttpClientConnectionFactory.builder()
            .http1Config(Http1Config.custom().setMaxLineLength(MAX_HEADER_LINE).setMaxHeaderCount(MAX_HEADER_COUNT).build())
            .build());
    pool.setDefaultConnectionConfig(ConnectionConfig.custom()
        .setConnectTimeout(Timeout.of(settings.connectTimeout()))
        .setSocketTimeout(Timeout.of(settings.readTimeout()))
        // servers close idle keep-alive connections (Apache after 5 s, some sooner), and a request
        // sent on one fails and costs a retry with backoff: one idle this long is checked (a
        // 1 ms read) before reuse; within a download or a batch they are reused sooner
        .setValidateAfterInactivity(VALIDATE_AFTER)
        .build());
    pool.setDefaultTlsConfig(TlsConfig.custom().setHandshakeTimeout(Timeout.of(settings.tlsHandshakeTimeout())).build());
    pool.setDefaultMaxPerRoute(settings.maxConnectionsPerHost());
    pool.setMaxTotal(Math.max(64, settings.maxConnectionsPerHost() * 4));
    settings.proxies().applyTo(pool);
    RequestConfig request = RequestConfig.custom()
        .setConnectionRequestTimeout(Timeout.of(settings.connectTimeout()))
        .setResponseTimeout(Timeout.of(settings.readTimeout()))
        .setMaxRedirects(settings.maxRedirects())
        .setRedirectsEnabled(true)
        .build();
    proxyAuth = new HttpProxyAuth(settings.proxies().proxies());
    routes = settings.proxies().routePlanner();
    client = HttpClients.custom()
        .setConnectionManager(pool)
        .setRequestExecutor(new TimedRequestExecutor(settings.firstByteTimeout(), settings.readTimeout()))
        .setRoutePlanner(routes)
        .setDefaultCredentialsProvider(proxyAuth.credentialsProvider())
        .setDefaultRequestConfig(request)
        .setUserAgent(settings.userAgent())
        .setDefaultCookieSpecRegistry(LazyCookieSpecs.registry())
        .addRequestInterceptorLast(new OriginHeadersInterceptor())
        .setRedirectStrategy(new SafeRedirectStrategy(settings.allowDowngrade()))
        // a Range must address the identity encoding, never a gzip representation
        .disableContentCompression()
        // the engine retries per segment from the current offset, with its own backoff
        .disableAutomaticRetries()
        // a thread of the client's, stopped by its close: without it a long-lived instance (the
        // desktop app) kept every socket the servers had closed until its next download
        .evictIdleConnections(TimeValue.of(settings.idleConnectionTimeout()))
        .build();
    proxies = settings.proxies();
  }

  /**
   * Whether a request for {@code uri} of a download that chose {@code proxy} can go over HTTP/2:
   * this transport allows it, the URL is https (ALPN chooses the version in the TLS handshake) and
   * no proxy is in between.
   */
  public boolean http2Possible(URI uri, RequestProxy proxy) {
    return http2 && "https".equalsIgnoreCase(uri.getScheme()) && proxies.forTarget("https", uri.getHost(), proxy) == null;
  }

  /**
   * Sends a GET and returns once the response head has arrived. Redirects are followed; the
   * exchange knows the final URI. {@code userHeaders} go only to their own origin, hop by hop.
   * The connection's phases are recorded into {@code recorder}.
   *
   * @param protocol the version asked for; HTTP/2 is used only where {@link #http2Possible} allows
   * @param headers the engine's own headers (Range, If-Range), sent on every hop
   * @param proxy the download's own proxy, which wins over the engine's on every hop; {@link RequestProxy#ENGINE} for none
   * @throws RedirectProblem when the redirects cannot be followed (a loop, too many, a downgrade)
   * @throws H2NotOffered when HTTP/2 was used and the server chose another version by ALPN
   * @throws ProxyAuthFailure when a proxy on the way wants credentials it was not given, or refuses them
   */
  public Exchange get(Protocol protocol, URI uri, Map<String, String> headers, OriginHeaders userHeaders,
      PhaseRecorder recorder, RequestProxy proxy) throws IOException {
    if (protocol == Protocol.HTTP_2 && http2Possible(uri, proxy)) {
      return h2().get(uri, headers, userHeaders, recorder);
    }
    HttpGet get = new HttpGet(uri);
    get.setHeader("Accept-Encoding", "identity");
    headers.forEach(get::setHeader);
    HttpClientContext context = HttpClientContext.create();
    context.setAttribute(OriginHeadersInterceptor.ATTRIBUTE, userHeaders);
    proxy.prepare(context, proxyAuth);
    ClassicHttpResponse response;
    try (PhaseRecorder.Scope ignored = recorder.bind(); RequestProxy.Scope sockets = proxy.bind()) {
      response = client.executeOpen(null, get, context);
    } catch (ClientProtocolException e) {
      if (e.getCause() instanceof RedirectException r) {
        // a loop, too many, or a refused downgrade: the same answer would come again
        throw new RedirectProblem(r.getMessage(), e);
      }
      throw e;
    }
    List<URI> redirects = context.getRedirectLocations().getAll();
    URI finalUri = redirects.isEmpty() ? uri : redirects.get(redirects.size() - 1);
    if (response.getCode() == HttpStatus.SC_PROXY_AUTHENTICATION_REQUIRED) {
      ProxyPlan.Proxy via = proxies.forTarget(finalUri.getScheme(), finalUri.getHost(), proxy);
      if (via != null && !via.socks()) {
        // HttpClient has already answered the challenge once if it could: a second try would be refused alike.
        // Aborted, not closed: a connection whose CONNECT was refused must not go back to the pool.
        new ClassicResponse(get, response).abort();
        throw ProxyAuthFailure.httpProxy(via);
      }
    }
    return new Exchange(new ClassicResponse(get, response), finalUri, Protocol.HTTP_1_1);
  }

  /**
   * Opens up to {@code wanted} connections for HTTP/1.1 requests to {@code uri}'s origin on
   * {@code executor} and leaves them idle in the pool (see {@link ConnectionWarmup}), never past
   * the pool's caps per route and in total. None through an HTTP proxy: there a connection is a
   * CONNECT tunnel, which HttpClient builds only for a request.
   * <p>Before the probe ({@code probeHolding} false), a slot is left for the probe's own connection,
   * and none opens when the pool already holds an idle connection for the route: the pool lends
   * idle connections before it opens any, so a warm task would only borrow one and put it back, and
   * the probe takes one itself; in a batch of files from one host that is the usual case, and their
   * connections are reused as they are. After the probe's head ({@code probeHolding}: the probe
   * streams on a connection of its own), the idle connections count toward {@code wanted}: each
   * is leased and handed back as it is, and only the rest are opened.
   *
   * @param wanted the connections the download's ranges are about to use besides the probe's
   * @param proxy the download's own proxy, as its requests give it: the warm connections are theirs only
   */
  public ConnectionWarmup warm(URI uri, int wanted, boolean probeHolding, PhaseRecorder recorder, Executor executor,
      RequestProxy proxy) {
    if (wanted <= 0) {
      return ConnectionWarmup.NONE;
    }
    try {
      HttpClientContext context = HttpClientContext.create();
      proxy.prepare(context, proxyAuth);
      HttpRoute route = routes.determineRoute(RoutingSupport.determineHost(new HttpGet(uri)), context);
      // counts every idle connection of the route, also those of other choices the pool would not lend here
      PoolStats onRoute = pool.getStats(route);
      if (route.getProxyHost() != null || (!probeHolding && onRoute.getAvailable() > 0)
          || onRoute.getAvailable() >= wanted) {
        return ConnectionWarmup.NONE;
      }
      PoolStats total = pool.getTotalStats();
      int probeSlot = probeHolding ? 0 : 1;
      int idleElsewhere = total.getAvailable() - onRoute.getAvailable();
      int n = Math.min(wanted, Math.min(pool.getMaxPerRoute(route) - onRoute.getLeased() - onRoute.getPending(),
          pool.getMaxTotal() - total.getLeased() - idleElsewhere - total.getPending()) - probeSlot);
      return ConnectionWarmup.start(pool, route, n, recorder, executor, proxy);
    } catch (HttpException | RuntimeException e) {
      // no route (the probe meets the same problem and reports it properly) or a pool closing with the Braid
      return ConnectionWarmup.NONE;
    }
  }

  private synchronized H2Transport h2() throws IOException {
    if (closed) {
      throw new IOException("the HTTP client is closed");
    }
    if (h2 == null) {
      h2 = new H2Transport(settings, tls, dns);
    }
    return h2;
  }

  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      if (h2 != null) {
        h2.close();
      }
    }
    client.close(CloseMode.IMMEDIATE);
    pool.close(CloseMode.IMMEDIATE);
  }
}
