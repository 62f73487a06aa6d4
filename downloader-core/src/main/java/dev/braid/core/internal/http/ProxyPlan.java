package dev.braid.core.internal.http;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import dev.braid.core.ProxyUrl;
import dev.braid.core.rules.HostRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
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
 * the route, as the socket the connection is made through (names are resolved locally), by our
 * own RFC 1928 handshake ({@link Socks5Handshake}). Credentials in a proxy URL go to that proxy
 * only: Basic for an HTTP proxy ({@link HttpProxyAuth}), RFC 1929 for a SOCKS5 proxy. Nothing here
 * prints them. Per-host rules ({@link #withRules}) choose a proxy, or none, for their hosts before
 * the environment's proxy and {@code no_proxy} are asked.
 */
public final class ProxyPlan {
  /** Every target is reached directly. */
  public static final ProxyPlan DIRECT = new ProxyPlan(null, null, List.of(), null, Map.of());

  /**
   * One proxy: {@code socks} false for an HTTP proxy; {@code credentials} null for none.
   * {@code socksAddress} is the address handed to HttpClient for a SOCKS route, by which
   * {@link #socksAt} finds this proxy again when the socket is made.
   */
  record Proxy(boolean socks, String host, int port, ProxyCredentials credentials, InetSocketAddress socksAddress) {
    Proxy(boolean socks, String host, int port, ProxyCredentials credentials) {
      // unresolved: the socket resolves it when it connects, not the pool on every route look-up
      this(socks, host, port, credentials, InetSocketAddress.createUnresolved(host, port));
    }

    /** {@code host:port}, for messages. */
    String where() {
      return host + ":" + port;
    }

    HttpHost httpHost() {
      return new HttpHost("http", host, port);
    }

    @Override
    public String toString() {
      return (socks ? "socks5://" : "http://") + where() + (credentials == null ? "" : " (with credentials)");
    }
  }

  private final Proxy forHttp;
  private final Proxy forHttps;
  private final List<String> bypass;
  /** The proxy the host rules choose for a host ({@link HostRule#DIRECT}: none); null without rules. */
  private final Function<String, Optional<String>> byRule;
  /** The rules' proxies by the URL they were given as. */
  private final Map<String, Proxy> ruleProxies;

  private ProxyPlan(Proxy forHttp, Proxy forHttps, List<String> bypass, Function<String, Optional<String>> byRule,
      Map<String, Proxy> ruleProxies) {
    this.forHttp = forHttp;
    this.forHttps = forHttps;
    this.bypass = bypass;
    this.byRule = byRule;
    this.ruleProxies = ruleProxies;
  }

  /**
   * This plan with the host rules' proxies: {@code byRule} gives the proxy URL the rules choose for
   * a host ({@link HostRule#DIRECT}: none; empty where no rule chooses), {@code urls} every URL it
   * may give; other hosts keep this plan's. A function, not the rules: the rules are the API's,
   * which this package does not read.
   *
   * @throws IllegalArgumentException for a URL that names no usable proxy
   */
  public ProxyPlan withRules(List<String> urls, Function<String, Optional<String>> byRule) {
    Map<String, Proxy> parsed = new LinkedHashMap<>();
    for (String u : urls) {
      if (!u.equals(HostRule.DIRECT)) {
        parsed.computeIfAbsent(u, ProxyPlan::parse);
      }
    }
    return new ProxyPlan(forHttp, forHttps, bypass, byRule, Map.copyOf(parsed));
  }

  /**
   * Every target through the proxy at {@code url} ({@code http://host:port},
   * {@code socks5://host:port}, each optionally with percent-encoded {@code user:password@}
   * before the host), except the hosts in {@code noProxy}.
   *
   * @throws IllegalArgumentException for a URL that names no usable proxy
   */
  public static ProxyPlan of(String url, String noProxy) {
    Proxy p = parse(url);
    return new ProxyPlan(p, p, bypassList(noProxy), null, Map.of());
  }

  /**
   * The conventional variables: {@code http_proxy}, {@code https_proxy} and {@code no_proxy},
   * lower case first, then upper case; {@code all_proxy} for a scheme without its own variable,
   * as curl reads it. Unset or empty variables mean direct.
   *
   * @throws IllegalArgumentException for a variable that names no usable proxy
   */
  public static ProxyPlan fromEnvironment(Map<String, String> env) {
    String all = variable(env, "all_proxy");
    String http = variable(env, "http_proxy");
    String https = variable(env, "https_proxy");
    http = http == null ? all : http;
    https = https == null ? all : https;
    if (http == null && https == null) {
      return DIRECT;
    }
    Proxy forHttp = http == null ? null : parse(http);
    Proxy forHttps = https == null ? null : https.equals(http) ? forHttp : parse(https);
    return new ProxyPlan(forHttp, forHttps, bypassList(variable(env, "no_proxy")), null, Map.of());
  }

  private static String variable(Map<String, String> env, String name) {
    String v = env.get(name);
    if (v == null || v.isBlank()) {
      v = env.get(name.toUpperCase(Locale.ROOT));
    }
    return v == null || v.isBlank() ? null : v.trim();
  }

  /** The proxy {@code url} names ({@link ProxyUrl#parse}, whose messages never show its credentials). */
  static Proxy parse(String url) {
    ProxyUrl p = ProxyUrl.parse(url);
    return new Proxy(p.socks(), p.host(), p.port(), p.user() == null ? null : new ProxyCredentials(p.user(), p.password()));
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

  /** The proxy for a request of a download that chose {@code chosen} to {@code scheme://host}, or null for direct. */
  Proxy forTarget(String scheme, String host, RequestProxy chosen) {
    return chosen.chosen() ? chosen.proxy() : forTarget(scheme, host);
  }

  /** The proxy for a request to {@code scheme://host}, or null for direct. */
  Proxy forTarget(String scheme, String host) {
    if (byRule != null) {
      Optional<String> chosen = byRule.apply(host);
      if (chosen.isPresent()) {
        return chosen.get().equals(HostRule.DIRECT) ? null : ruleProxies.get(chosen.get());
      }
    }
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

  /**
   * Routes through an HTTP proxy where one applies; SOCKS and direct targets get a direct route.
   * A download's own proxy ({@link RequestProxy#in}) wins over this plan for its requests.
   */
  HttpRoutePlanner routePlanner() {
    return new DefaultRoutePlanner(DefaultSchemePortResolver.INSTANCE) {
      @Override
      protected HttpHost determineProxy(HttpHost target, HttpContext context) {
        Proxy p = forTarget(target.getSchemeName(), target.getHostName(), RequestProxy.in(context));
        return p == null || p.socks() ? null : p.httpHost();
      }
    };
  }

  /** Makes the pool open the sockets of SOCKS-proxied routes through the proxy. */
  void applyTo(PoolingHttpClientConnectionManager pool) {
    if (forHttp == null && forHttps == null && ruleProxies.isEmpty()) {
      return;
    }
    pool.setSocketConfigResolver(route -> {
      HttpHost target = route.getTargetHost();
      Proxy p = route.getProxyHost() != null ? null : forTarget(target.getSchemeName(), target.getHostName());
      SocketConfig.Builder b = SocketConfig.custom().setTcpNoDelay(true);
      if (p != null && p.socks()) {
        b.setSocksProxyAddress(p.socksAddress());
      }
      return b.build();
    });
  }

  /** The SOCKS proxy whose {@link Proxy#socksAddress} HttpClient was given, or null. */
  Proxy socksAt(SocketAddress address) {
    for (Proxy p : proxies()) {
      if (p.socks() && p.socksAddress().equals(address)) {
        return p;
      }
    }
    return null;
  }

  /** The proxies in use, each once. */
  List<Proxy> proxies() {
    List<Proxy> out = new ArrayList<>(2);
    if (forHttp != null) {
      out.add(forHttp);
    }
    if (forHttps != null && !forHttps.equals(forHttp)) {
      out.add(forHttps);
    }
    for (Proxy p : ruleProxies.values()) {
      if (!out.contains(p)) {
        out.add(p);
      }
    }
    return out;
  }

  /** Names the proxies, never their credentials. */
  @Override
  public String toString() {
    return "proxies http=" + forHttp + " https=" + forHttps + " bypass=" + bypass
        + (ruleProxies.isEmpty() ? "" : " by rule " + ruleProxies.values());
  }
}
