package dev.braid.core.internal.http;

import java.util.List;
import org.apache.hc.client5.http.auth.AuthCache;
import org.apache.hc.client5.http.auth.AuthScope;
import org.apache.hc.client5.http.auth.CredentialsProvider;
import org.apache.hc.client5.http.auth.UsernamePasswordCredentials;
import org.apache.hc.client5.http.impl.auth.BasicAuthCache;
import org.apache.hc.client5.http.impl.auth.BasicCredentialsProvider;
import org.apache.hc.client5.http.impl.auth.BasicScheme;
import org.apache.hc.client5.http.protocol.HttpClientContext;

/**
 * Basic authentication to the HTTP proxies whose URL had credentials, through HttpClient's own
 * mechanism: the credentials provider knows only each proxy's {@link AuthScope} (so it answers a
 * 407 challenge from the proxy, and no origin's 401), and one auth cache, shared by every request's
 * context, holds a preemptive Basic scheme per proxy so that the first CONNECT (or absolute-form
 * request) of each connection already carries {@code Proxy-Authorization}. Without it every new
 * tunnel, and every plain-http request (each has its own context), would first meet a 407.
 * One for the engine's proxies, and one per download that chose a proxy with credentials of its
 * own ({@link RequestProxy}): that download's contexts carry it instead.
 */
final class HttpProxyAuth {
  private final BasicCredentialsProvider provider = new BasicCredentialsProvider();
  private final AuthCache cache = new BasicAuthCache();

  HttpProxyAuth(List<ProxyPlan.Proxy> proxies) {
    for (ProxyPlan.Proxy p : proxies) {
      ProxyCredentials c = p.credentials();
      if (p.socks() || c == null) {
        continue;
      }
      UsernamePasswordCredentials credentials = new UsernamePasswordCredentials(c.user(), c.password().toCharArray());
      provider.setCredentials(new AuthScope(p.httpHost()), credentials);
      BasicScheme basic = new BasicScheme();
      basic.initPreemptive(credentials);
      // the cache keeps a copy of the scheme's state and hands each request a fresh scheme
      cache.put(p.httpHost(), basic);
    }
  }

  /** For {@code HttpClientBuilder.setDefaultCredentialsProvider}: answers the proxies' challenges only. */
  CredentialsProvider credentialsProvider() {
    return provider;
  }

  /** Lets a request's context authenticate to the proxies before they ask. */
  void prepare(HttpClientContext context) {
    context.setAuthCache(cache);
  }

  /** Like {@link #prepare}, for a context whose credentials are these proxies' only (not the client's default). */
  void prepareInstead(HttpClientContext context) {
    context.setAuthCache(cache);
    context.setCredentialsProvider(provider);
  }
}
