package dev.braid.core.http;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hc.client5.http.impl.DefaultSchemePortResolver;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.routing.DefaultRoutePlanner;
import org.apache.hc.client5.http.routing.HttpRoutePlanner;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * Which proxy, if any, a target goes through: one for http targets, one for https targets, and
 * the hosts that bypass both ({@code no_proxy}). An HTTP proxy becomes part of HttpClient's route
 * (CONNECT tunnels for https, absolute-form requests for http); a SOCKS5 proxy is applied under
 * the route, as the socket the connection is made through (names are resolved locally).
 */
public final class ProxyPlan {
  /** Every target is reached directly. */
  public static final ProxyPlan DIRECT = new ProxyPlan(null, null, List.of());

  /** One proxy: {@code socks} false for an HTTP proxy. */
  record Proxy(boolean socks, String host, int port) {}

  private final Proxy forHttp;
  private final Proxy forHttps;
  private final List<String> bypass;

  private ProxyPlan(Proxy forHttp, Proxy forHttps, List<String> bypass) {
    this.forHttp = forHttp;
    this.forHttps = forHttps;
    this.bypass = bypass;
  }

  /**
   * Every target through the proxy at {@code url} ({@code http://host:port},
   * {@code socks5://host:port}), except the hosts in {@code noProxy}.
   *
   * @throws IllegalArgumentException for a URL that names no usable proxy
   */
  public static ProxyPlan of(String url, String noProxy) {
    Proxy p = parse(url);
    return new ProxyPlan(p, p, bypassList(noProxy));
  }

  /**
   * The conventional variables: {@code http_proxy}, {@code https_proxy} and {@code no_proxy},
   * lower case first, then upper case. Unset or empty variables mean direct.
   *
   * @throws IllegalArgumentException for a variable that names no usable proxy
   */
  public static ProxyPlan fromEnvironment(Map<String, String> env) {
    String http = variable(env, "http_proxy");
    String https = variable(env, "https_proxy");
    if (http == null && https == null) {
      return DIRECT;
    }
    return new ProxyPlan(http == null ? null : parse(http), https == null ? null : parse(https),
        bypassList(variable(env, "no_proxy")));
  }

  private static String variable(Map<String, String> env, String name) {
    String v = env.get(name);
    if (v == null || v.isBlank()) {
      v = env.get(name.toUpperCase(Locale.ROOT));
    }
    return v == null || v.isBlank() ? null : v.trim();
  }

  private static Proxy parse(String url) {
    URI u;
    try {
      // "host:port" without a scheme means an HTTP proxy, as curl reads it
      u = URI.create(url.contains("://") ? url : "http://" + url);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("malformed proxy URL " + url, e);
    }
    String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
    if (u.getHost() == null) {
      throw new IllegalArgumentException("the proxy URL " + url + " names no host");
    }
    if (u.getUserInfo() != null) {
      throw new IllegalArgumentException("proxy credentials are not supported: remove them from the proxy URL");
    }
    return switch (scheme) {
      case "http" -> new Proxy(false, u.getHost(), u.getPort() < 0 ? 80 : u.getPort());
      case "socks5", "socks5h", "socks" -> new Proxy(true, u.getHost(), u.getPort() < 0 ? 1080 : u.getPort());
      default -> throw new IllegalArgumentException("unsupported proxy scheme " + scheme + " (http:// or socks5://)");
    };
  }

  private static List<String> bypassList(String noProxy) {
    List<String> out = new ArrayList<>();
    if (noProxy != null) {
      for (String entry : noProxy.split(",")) {
        String e = entry.trim().toLowerCase(Locale.ROOT);
        // a port in an entry is ignored: the host decides
        int colon = e.lastIndexOf(':');
        if (colon > 0 && e.indexOf(':') == colon) {
          e = e.substring(0, colon);
        }
        if (e.startsWith("*.")) {
          e = e.substring(1);
        }
        if (!e.isEmpty()) {
          out.add(e);
        }
      }
    }
    return List.copyOf(out);
  }

  /** The proxy for a request to {@code scheme://host}, or null for direct. */
  Proxy forTarget(String scheme, String host) {
    Proxy p = "https".equalsIgnoreCase(scheme) ? forHttps : forHttp;
    if (p == null || bypassed(host.toLowerCase(Locale.ROOT))) {
      return null;
    }
    return p;
  }

  private boolean bypassed(String host) {
    for (String e : bypass) {
      if (e.equals("*") || host.equals(e) || (e.startsWith(".") ? host.endsWith(e) || host.equals(e.substring(1))
          : host.endsWith("." + e))) {
        return true;
      }
    }
    return false;
  }

  /** Routes through an HTTP proxy where one applies; SOCKS and direct targets get a direct route. */
  HttpRoutePlanner routePlanner() {
    return new DefaultRoutePlanner(DefaultSchemePortResolver.INSTANCE) {
      @Override
      protected HttpHost determineProxy(HttpHost target, HttpContext context) {
        Proxy p = forTarget(target.getSchemeName(), target.getHostName());
        return p == null || p.socks() ? null : new HttpHost("http", p.host(), p.port());
      }
    };
  }

  /** Makes the pool open the sockets of SOCKS-proxied routes through the proxy. */
  void applyTo(PoolingHttpClientConnectionManager pool) {
    if (forHttp == null && forHttps == null) {
      return;
    }
    pool.setSocketConfigResolver(route -> {
      HttpHost target = route.getTargetHost();
      Proxy p = route.getProxyHost() != null ? null : forTarget(target.getSchemeName(), target.getHostName());
      SocketConfig.Builder b = SocketConfig.custom().setTcpNoDelay(true);
      if (p != null && p.socks()) {
        b.setSocksProxyAddress(new InetSocketAddress(p.host(), p.port()));
      }
      return b.build();
    });
  }

  @Override
  public String toString() {
    return "proxies http=" + forHttp + " https=" + forHttps + " bypass=" + bypass;
  }
}
