package dev.braid.core.internal.http;

import dev.braid.core.rules.HostRule;
import java.util.List;
import java.util.Objects;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * The proxy one download chose for all its requests, whatever the engine's proxy, its
 * {@code no_proxy} and the per-host rules say: a proxy of its own, or none ({@link #DIRECT});
 * {@link #ENGINE} when it chose nothing and the engine's {@link ProxyPlan} decides.
 *
 * <p>It travels with each request through HttpClient's own hooks. The route planner reads it from
 * the request's context ({@link #in}), so an HTTP proxy is part of the route, and the pool never
 * lends a connection of one route to another. A SOCKS proxy lies under the route (the route is the
 * direct one), so the choice is also the context's user token: the pool keeps it as the state of
 * every connection it opens and lends a connection only to a request of an equal choice. The
 * socket factory, which HttpClient gives no context, finds the choice bound to the connecting
 * thread ({@link #bind}), as {@link PhaseRecorder} is. Credentials in its URL go to that proxy only
 * (Basic through HttpClient's auth cache, RFC 1929 for SOCKS) and are never printed.
 *
 * <p>Immutable; equal choices (the same proxy and credentials) share connections.
 */
public final class RequestProxy {
  /** No choice of the download's own: the engine's proxy, {@code no_proxy} and rules apply. */
  public static final RequestProxy ENGINE = new RequestProxy(false, null);
  /** Every request of the download goes to its server directly. */
  public static final RequestProxy DIRECT = new RequestProxy(true, null);
  private static final String ATTRIBUTE = RequestProxy.class.getName();
  private static final ThreadLocal<RequestProxy> CONNECTING = new ThreadLocal<>();

  private final boolean chosen;
  private final ProxyPlan.Proxy proxy;
  /** The preemptive Basic credentials of an HTTP proxy with credentials; null otherwise. */
  private final HttpProxyAuth auth;

  private RequestProxy(boolean chosen, ProxyPlan.Proxy proxy) {
    this.chosen = chosen;
    this.proxy = proxy;
    this.auth = proxy != null && !proxy.socks() && proxy.credentials() != null ? new HttpProxyAuth(List.of(proxy)) : null;
  }

  /**
   * Every request through the proxy at {@code url}, in the forms {@link ProxyPlan#of} takes.
   *
   * @throws IllegalArgumentException for a URL that names no usable proxy (the message masks its credentials)
   */
  public static RequestProxy of(String url) {
    return new RequestProxy(true, ProxyPlan.parse(Objects.requireNonNull(url, "url")));
  }

  /**
   * The choice of a download's proxy setting: null for {@link #ENGINE}, {@link HostRule#DIRECT} (any
   * case) for {@link #DIRECT}, else {@link #of}.
   *
   * @throws IllegalArgumentException for a URL that names no usable proxy
   */
  public static RequestProxy forDownload(String setting) {
    return setting == null ? ENGINE : setting.strip().equalsIgnoreCase(HostRule.DIRECT) ? DIRECT : of(setting.strip());
  }

  /** Whether the download chose (a proxy or none); if not, the engine's plan decides. */
  boolean chosen() {
    return chosen;
  }

  /** The chosen proxy, or null for none. */
  ProxyPlan.Proxy proxy() {
    return proxy;
  }

  /** Puts this choice into a request's context: for the route planner, the pool (as the user token) and the proxy's credentials. */
  void prepare(HttpClientContext context, HttpProxyAuth engine) {
    context.setAttribute(ATTRIBUTE, this);
    context.setUserToken(this);
    if (auth != null) {
      auth.prepareInstead(context);
    } else {
      engine.prepare(context);
    }
  }

  /** The choice a request's context carries; {@link #ENGINE} for a context without one. */
  static RequestProxy in(HttpContext context) {
    return context != null && context.getAttribute(ATTRIBUTE) instanceof RequestProxy p ? p : ENGINE;
  }

  /** Binds this choice to the calling thread, for the sockets it opens, until the scope closes. */
  Scope bind() {
    RequestProxy previous = CONNECTING.get();
    CONNECTING.set(this);
    return () -> CONNECTING.set(previous);
  }

  /** The choice bound to this thread, or {@link #ENGINE}. */
  static RequestProxy connecting() {
    RequestProxy p = CONNECTING.get();
    return p == null ? ENGINE : p;
  }

  /** Ends a {@link #bind}. */
  interface Scope extends AutoCloseable {
    @Override
    void close();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RequestProxy r && r.chosen == chosen && Objects.equals(r.proxy, proxy);
  }

  @Override
  public int hashCode() {
    return Boolean.hashCode(chosen) * 31 + Objects.hashCode(proxy);
  }

  /** Names the proxy, never its credentials. */
  @Override
  public String toString() {
    return !chosen ? "the engine's proxy" : proxy == null ? "direct" : proxy.toString();
  }
}
