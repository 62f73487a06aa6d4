package dev.braid.core.rules;

import dev.braid.core.DownloadRequestBuilder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The settings the rules give one host: for each setting, the value of the most specific matching
 * rule that sets it; headers merged by name the same way. Made by {@link Rules#forHost}.
 */
public final class HostSettings {
  static final HostSettings NONE = new HostSettings(List.of());

  private final List<HostPattern> matched;
  private OptionalInt connections = OptionalInt.empty();
  private OptionalInt maxConnections = OptionalInt.empty();
  private OptionalInt maxConnectionsPerHost = OptionalInt.empty();
  private OptionalLong rateLimit = OptionalLong.empty();
  private Optional<String> userAgent = Optional.empty();
  private Optional<String> proxy = Optional.empty();
  private final Map<String, String> headers = new LinkedHashMap<>();

  /** {@code rules} ordered from the least specific to the most: later ones overwrite. */
  HostSettings(List<HostRule> rules) {
    List<HostPattern> patterns = new ArrayList<>();
    for (HostRule r : rules) {
      patterns.add(0, r.pattern());
      connections = or(r.connections(), connections);
      maxConnections = or(r.maxConnections(), maxConnections);
      maxConnectionsPerHost = or(r.maxConnectionsPerHost(), maxConnectionsPerHost);
      rateLimit = r.rateLimit().isPresent() ? r.rateLimit() : rateLimit;
      userAgent = r.userAgent().or(() -> userAgent);
      proxy = r.proxy().or(() -> proxy);
      r.headers().forEach((n, v) -> {
        headers.keySet().removeIf(k -> k.equalsIgnoreCase(n));
        headers.put(n, v);
      });
    }
    this.matched = Collections.unmodifiableList(patterns);
  }

  private HostSettings(HostSettings from, boolean withProxy) {
    this.matched = from.matched;
    this.connections = from.connections;
    this.maxConnections = from.maxConnections;
    this.maxConnectionsPerHost = from.maxConnectionsPerHost;
    this.rateLimit = from.rateLimit;
    this.userAgent = from.userAgent;
    this.proxy = withProxy ? from.proxy : Optional.empty();
    this.headers.putAll(from.headers);
  }

  private static OptionalInt or(OptionalInt first, OptionalInt second) {
    return first.isPresent() ? first : second;
  }

  HostSettings withoutProxy() {
    return proxy.isEmpty() ? this : new HostSettings(this, false);
  }

  /** The patterns of the rules that matched, the most specific first; empty when none did. */
  public List<HostPattern> matched() {
    return matched;
  }

  public OptionalInt connections() {
    return connections;
  }

  public OptionalInt maxConnections() {
    return maxConnections;
  }

  public OptionalInt maxConnectionsPerHost() {
    return maxConnectionsPerHost;
  }

  public OptionalLong rateLimit() {
    return rateLimit;
  }

  public Optional<String> userAgent() {
    return userAgent;
  }

  /** A proxy URL or {@link HostRule#DIRECT}; empty when the rules leave the proxy to the engine's default. */
  public Optional<String> proxy() {
    return proxy;
  }

  /** Header names to values (the values may be credentials: do not print them). */
  public Map<String, String> headers() {
    return Collections.unmodifiableMap(headers);
  }

  /**
   * Sets this host's per-download settings on {@code request}: connections, max-connections,
   * rate limit, headers and user agent (as a header bound to the URL's origin, like every header).
   * Call it before applying a user's explicit options, so that those replace these.
   */
  public void applyTo(DownloadRequestBuilder request) {
    connections.ifPresent(request::connections);
    maxConnections.ifPresent(request::maxConnections);
    rateLimit.ifPresent(request::rateLimit);
    headers.forEach(request::header);
    userAgent.ifPresent(ua -> request.header("User-Agent", ua));
  }
}
