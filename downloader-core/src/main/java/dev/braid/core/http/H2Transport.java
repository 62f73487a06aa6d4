package dev.braid.core.http;

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
 * a download travel as streams of one connection. Each stream's window is 16 MiB (the default 65,535 bytes would cap a stream
 * at window / RTT). The body goes from the reactor to the worker through {@link StreamBody}, so
 * the file writes stay on the worker threads. Only the time to first byte and reuse are recorded
 * per download: DNS, connect and TLS run on the reactor, outside any download's thread. A server
 * that does not choose {@code h2} by ALPN fails the request with {@link H2NotOffered}.
 */
final class H2Transport implements AutoCloseable {
  static final int STREAM_WINDOW = 16 << 20;

  private final CloseableHttpAsyncClient client;
  private final Duration firstByteTimeout;
  private final Duration readTimeout;

  H2Transport(HttpSettings settings, LazyTlsStrategy tls, CachingDnsResolver dns) throws IOException {
    this.firstByteTimeout = settings.firstByteTimeout();
    this.readTimeout = settings.readTimeout();
    // the HTTP/2-only client: one connection per host, shared by every stream, and cancelling a
    // request resets its stream only (the general async client may drop the shared connection)
    client = HttpAsyncClients.customHttp2()
        .setTlsStrategy(new AlpnH2Guard(tls.forAsync()))
        .setDnsResolver(dns)
        .setDefaultConnectionConfig(ConnectionConfig.custom().setConnectTimeout(Timeout.of(settings.connectTimeout()))
            .setSocketTimeout(Timeout.of(settings.readTimeout())).build())
        .setIOReactorConfig(IOReactorConfig.custom().setIoThreadCount(1).build())
        .setH2Config(H2Config.custom().setInitialWindowSize(STREAM_WINDOW).setPushEnabled(false)
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
    StreamBody body = new StreamBody(readTimeout);
    long start = System.nanoTime();
    Future<Void> exchange = client.execute(producer, body, null, context, null);
    HttpResponse head;
    try {
      head = body.awaitHead(firstByteTimeout);
    } catch (IOException e) {
      exchange.cancel(true);
      if (e.getCause() instanceof RedirectException r) {
        throw new RedirectProblem(r.getMessage(), e);
      }
      throw e;
    }
    EndpointDetails endpoint = context.getEndpointDetails();
    recorder.firstByte(System.nanoTime() - start, endpoint != null && endpoint.getRequestCount() > 1);
    List<URI> redirects = context.getRedirectLocations().getAll();
    URI finalUri = redirects.isEmpty() ? uri : redirects.get(redirects.size() - 1);
    return new Exchange(new StreamResponse(head, body, exchange), finalUri, Protocol.HTTP_2);
  }

  @Override
  public void close() {
    client.close(CloseMode.IMMEDIATE);
  }
}
