package dev.braid.core.http;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.apache.hc.client5.http.ClientProtocolException;
import org.apache.hc.client5.http.RedirectException;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;

/**
 * The shared blocking HTTP client: one per {@code Braid}, used by every worker thread at once.
 * Blocking I/O on one thread per connection was measured as fast as the async client for ranged
 * downloads, and it lets a worker stop exactly at a segment boundary by aborting its own request.
 */
public final class HttpTransport implements AutoCloseable {
  private final CloseableHttpClient client;
  private final PoolingHttpClientConnectionManager pool;

  public HttpTransport(HttpSettings settings) {
    ConnectionConfig connection = ConnectionConfig.custom()
        .setConnectTimeout(Timeout.of(settings.connectTimeout()))
        .setSocketTimeout(Timeout.of(settings.readTimeout()))
        .build();
    pool = PoolingHttpClientConnectionManagerBuilder.create()
        .setDefaultConnectionConfig(connection)
        .setTlsSocketStrategy(new LazyTlsStrategy(settings.tls()))
        .setMaxConnPerRoute(settings.maxConnectionsPerHost())
        .setMaxConnTotal(Math.max(64, settings.maxConnectionsPerHost() * 4))
        .build();
    RequestConfig request = RequestConfig.custom()
        .setConnectionRequestTimeout(Timeout.of(settings.connectTimeout()))
        .setResponseTimeout(Timeout.of(settings.readTimeout()))
        .setMaxRedirects(settings.maxRedirects())
        .setRedirectsEnabled(true)
        .build();
    client = HttpClients.custom()
        .setConnectionManager(pool)
        .setDefaultRequestConfig(request)
        .setUserAgent(settings.userAgent())
        .setRedirectStrategy(new SafeRedirectStrategy(settings.allowDowngrade()))
        // a Range must address the identity encoding, never a gzip representation
        .disableContentCompression()
        // the engine retries per segment from the current offset, with its own backoff
        .disableAutomaticRetries()
        .build();
  }

  /**
   * Sends a GET and returns once the response head has arrived. Redirects are followed; the
   * exchange knows the final URI.
   *
   * @throws RedirectProblem when the redirects cannot be followed (a loop, too many, a downgrade)
   */
  public Exchange get(URI uri, Map<String, String> headers) throws IOException {
    HttpGet get = new HttpGet(uri);
    get.setHeader("Accept-Encoding", "identity");
    headers.forEach(get::setHeader);
    HttpClientContext context = HttpClientContext.create();
    ClassicHttpResponse response;
    try {
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
    return new Exchange(get, response, finalUri);
  }

  @Override
  public void close() {
    client.close(CloseMode.IMMEDIATE);
    pool.close(CloseMode.IMMEDIATE);
  }
}
