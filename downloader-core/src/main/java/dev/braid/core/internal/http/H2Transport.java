package dev.braid.core.internal.http;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.hc.client5.http.RedirectException;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.EndpointDetails;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.nio.AsyncRequestProducer;
import org.apache.hc.core5.http.nio.support.AsyncRequestBuilder;
import org.apache.hc.core5.http2.config.H2Config;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.util.Timeout;

/**
 * HTTP/2 for https URLs, for the downloads whose requests go over it ({@code --http2}, or
 * {@code --http-auto} where it measured faster): httpclient5's HTTP/2-only async client,
 * which keeps one connection per host and opens every request on it as a stream, so the ranges of
 * a download travel as streams of one connection. The body goes from the reactor to the worker
 * through {@link StreamBody}, so the file writes stay on the worker threads.
 *
 * <p>Memory: every stream opens with a {@value #INITIAL_WINDOW}-byte window and grows it, as its
 * worker reads, up to its share of one {@value #BUFFER_BUDGET}-byte budget shared by all streams
 * of the client ({@link WindowBudget}), at most {@value #STREAM_WINDOW} (the default 65,535 bytes
 * would cap a lone stream at window / RTT). So the bytes buffered are bounded in total, not per
 * stream: 16 streams of a 16 MiB window each filled a 256 MiB heap.
 *
 * <p>The reactor reports connections and TLS handshakes to {@link H2Connections}; the first
 * stream on a connection records them into its download's {@link PhaseRecorder}. A connection
 * that stalls is given up by its readers (see {@link StreamBody}). A server that does not choose
 * {@code h2} by ALPN fails the request with {@link H2NotOffered}.
 */
final class H2Transport implements AutoCloseable {
  /** The most one stream's window grows to: what the JDK client and OkHttp use. */
  static final int STREAM_WINDOW = 16 << 20;
  /** The window a stream opens with, before its worker has read anything. */
  static final int INITIAL_WINDOW = 128 << 10;
  /** What all streams of the client may hold unread, together (plus the initial windows). */
  static final long BUFFER_BUDGET = 32L << 20;

  private final CloseableHttpAsyncClient client;
  private final Duration firstByteTimeout;
  private final Duration readTimeout;
  private final WindowBudget budget = new WindowBudget(BUFFER_BUDGET, INITIAL_WINDOW, STREAM_WINDOW);
  private final H2Connections connections;

  H2Transport(HttpSettings settings, LazyTlsStrategy tls, CachingDnsResolver dns) throws IOException {
    this.firstByteTimeout = settings.firstByteTimeout();
    this.readTimeout = settings.readTimeout();
    this.connections = new H2Connections(settings.ticker());
    // the HTTP/2-only client: one connection per host, shared by every stream, and cancelling a
    // request resets its stream only (the general async client may drop the shared connection)
    client = HttpAsyncClients.customHttp2()
        .setTlsStrategy(new AlpnH2Guard(tls.forAsync(), connections))
        .setIOSessionListener(connections)
        .setDnsResolver(dns)
        .setDefaultConnectionConfig(ConnectionConfig.custom().setConnectTimeout(Timeout.of(settings.connectTimeout()))
            .setSocketTimeout(Timeout.of(settings.readTimeout())).build())
        .setIOReactorConfig(IOReactorConfig.custom().setIoThreadCount(1).build())
        .setH2Config(H2Config.custom().setInitialWindowSize(INITIAL_WINDOW).setPushEnabled(false)
            .setMaxConcurrentStreams(256).build())
        .setDefaultRequestConfig(RequestConfig.custom()
            .setConnectionRequestTimeout(Timeout.of(settings.connectTimeout()))
            .setMaxRedirects(settings.maxRedirects()).setRedirectsEnabled(true).build())
        .setUserAgent(settings.userAgent())
        .setDefaultCookieSpecRegistry(LazyCookieSpecs.registry())
        .addRequestInterceptorLast(new OriginHeadersInterceptor())
        .setRedirectStrategy(new SafeRedirectStrategy(settings.allowDowngrade()))
        .disableAutomaticRetries()
        .build();
    client.start();
  }

  /** Like {@link HttpTransport#get}, over an HTTP/2 stream. */
  Exchange get(URI uri, Map<String, String> headers, OriginHeaders userHeaders, PhaseRecorder recorder) throws IOException {
    AsyncRequestBuilder request = AsyncRequestBuilder.get(uri).setHeader("Accept-Encoding", "identity");
    headers.forEach(request::setHeader);
    AsyncRequestProducer producer = request.build();
    HttpClientContext context = HttpClientContext.create();
    context.setAttribute(OriginHeadersInterceptor.ATTRIBUTE, userHeaders);
    StreamBody body = new StreamBody(readTimeout, budget, connections);
    // on the connections' ticker: H2Connection.claim compares it with the connect time
    long start = connections.ticker.read();
    Future<Void> exchange;
    try (PhaseRecorder.Scope ignored = recorder.bind()) {
      // a look-up the client makes on this thread is the download's
      exchange = client.execute(producer, body, null, context, null);
    } catch (RuntimeException e) {
      // never sent (a client closing): the stream's window goes back to the budget
      body.abort(0);
      throw e;
    }
    HttpResponse head;
    try {
      head = body.awaitHead(firstByteTimeout);
    } catch (IOException e) {
      body.abort(0);
      exchange.cancel(true);
      if (e.getCause() instanceof RedirectException r) {
        throw new RedirectProblem(r.getMessage(), e);
      }
      throw e;
    }
    H2Connection connection = body.connection();
    if (connection != null) {
      connection.claim(recorder, start);
    }
    EndpointDetails endpoint = context.getEndpointDetails();
    recorder.firstByte(connections.ticker.read() - start, endpoint != null && endpoint.getRequestCount() > 1);
    List<URI> redirects = context.getRedirectLocations().getAll();
    URI finalUri = redirects.isEmpty() ? uri : redirects.get(redirects.size() - 1);
    return new Exchange(new StreamResponse(head, body, exchange), finalUri, Protocol.HTTP_2);
  }

  @Override
  public void close() {
    client.close(CloseMode.IMMEDIATE);
  }
}
