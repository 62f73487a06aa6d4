package dev.braid.core.rules;

import dev.braid.core.DownloadRequest;
import dev.braid.core.ProxyUrl;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What a user set for the hosts of one {@link HostPattern}; each setting is optional, and one that
 * is not set leaves the less specific rules' (or the default) in force. Immutable; build with
 * {@link #builder(String)}.
 */
public final class HostRule {
  /** The proxy value that means "connect directly", overriding a proxy from the environment or a wider rule. */
  public static final String DIRECT = "direct";

  private final HostPattern pattern;
  private final Integer connections;
  private final Integer maxConnections;
  private final Integer maxConnectionsPerHost;
  private final Long rateLimit;
  private final String userAgent;
  private final String proxy;
  private final Map<String, String> headers;

  private HostRule(Builder b) {
    this.pattern = b.pattern;
    this.connections = b.connections;
    this.maxConnections = b.maxConnections;
    this.maxConnectionsPerHost = b.maxConnectionsPerHost;
    this.rateLimit = b.rateLimit;
    this.userAgent = b.userAgent;
    this.proxy = b.proxy;
    // in the order the user wrote them
    this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(b.headers));
  }

  /**
   * Starts a rule for the hosts {@code pattern} names (see {@link HostPattern#parse}).
   *
   * @throws IllegalArgumentException when {@code pattern} is not a host pattern
   */
  public static Builder builder(String pattern) {
    return new Builder(HostPattern.parse(pattern));
  }

  public HostPattern pattern() {
    return pattern;
  }

  /** A fixed connection count per download. */
  public OptionalInt connections() {
    return connections == null ? OptionalInt.empty() : OptionalInt.of(connections);
  }

  /** The cap of a download's adaptive connection count. */
  public OptionalInt maxConnections() {
    return maxConnections == null ? OptionalInt.empty() : OptionalInt.of(maxConnections);
  }

  /** The most connections all downloads together hold to one matching host. */
  public OptionalInt maxConnectionsPerHost() {
    return maxConnectionsPerHost == null ? OptionalInt.empty() : OptionalInt.of(maxConnectionsPerHost);
  }

  /** Each download's own rate limit, bytes per second (0: none). */
  public OptionalLong rateLimit() {
    return rateLimit == null ? OptionalLong.empty() : OptionalLong.of(rateLimit);
  }

  public Optional<String> userAgent() {
    return Optional.ofNullable(userAgent);
  }

  /** A proxy URL as {@code BraidBuilder.proxy} takes it, or {@link #DIRECT}. */
  public Optional<String> proxy() {
    return Optional.ofNullable(proxy);
  }

  /** Headers sent to the download URL's origin only (as {@link dev.braid.core.DownloadRequestBuilder#header}). */
  public Map<String, String> headers() {
    return headers;
  }

  /** Names the pattern and which settings it has; never header values or proxy credentials. */
  @Override
  public String toString() {
    return "HostRule[" + pattern + (headers.isEmpty() ? "" : ", headers " + headers.keySet()) + "]";
  }

  /** Builds a {@link HostRule}; every setter checks its argument ({@link IllegalArgumentException}). */
  public static final class Builder {
    private final HostPattern pattern;
    private Integer connections;
    private Integer maxConnections;
    private Integer maxConnectionsPerHost;
    private Long rateLimit;
    private String userAgent;
    private String proxy;
    private final Map<String, String> headers = new LinkedHashMap<>();

    private Builder(HostPattern pattern) {
      this.pattern = pattern;
    }

    /** Pins each download's connection count, 1 to {@value DownloadRequest#MAX_CONNECTIONS}. */
    public Builder connections(int n) {
      this.connections = count(n, "connections");
      return this;
    }

    /** Caps each download's adaptive count, 1 to {@value DownloadRequest#MAX_CONNECTIONS}. */
    public Builder maxConnections(int n) {
      this.maxConnections = count(n, "max-connections");
      return this;
    }

    /** Caps the connections of all downloads together to one matching host, 1 to {@value DownloadRequest#MAX_CONNECTIONS}. */
    public Builder maxConnectionsPerHost(int n) {
      this.maxConnectionsPerHost = count(n, "max-connections-per-host");
      return this;
    }

    /** Each download's rate limit in bytes per second; 0 for none. */
    public Builder rateLimit(long bytesPerSecond) {
      if (bytesPerSecond < 0) {
        throw new IllegalArgumentException("rate-limit cannot be negative, not " + bytesPerSecond);
      }
      this.rateLimit = bytesPerSecond;
      return this;
    }

    /** The User-Agent sent to a matching download's origin. */
    public Builder userAgent(String userAgent) {
      Objects.requireNonNull(userAgent, "userAgent");
      this.userAgent = headerValue("user-agent", userAgent);
      return this;
    }

    /**
     * The proxy for matching hosts: {@code http://HOST:PORT} or {@code socks5://HOST:PORT}, with
     * optional percent-encoded credentials, or {@link #DIRECT}.
     */
    public Builder proxy(String url) {
      Objects.requireNonNull(url, "url");
      String u = url.strip();
      if (!u.equalsIgnoreCase(DIRECT)) {
        ProxyUrl.parse(u);
      }
      this.proxy = u.equalsIgnoreCase(DIRECT) ? DIRECT : u;
      return this;
    }

    /** A header for a matching download's origin (replacing one of that name given before, in any case). */
    public Builder header(String name, String value) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
      if (name.isEmpty() || !name.chars().allMatch(Builder::isTokenChar)) {
        throw new IllegalArgumentException("not a valid header name: '" + name + "'");
      }
      if (name.toLowerCase(Locale.ROOT).equals("user-agent")) {
        throw new IllegalArgumentException("set the User-Agent with user-agent, not as a header");
      }
      headers.keySet().removeIf(n -> n.equalsIgnoreCase(name));
      headers.put(name, headerValue("header " + name, value));
      return this;
    }

    public HostRule build() {
      return new HostRule(this);
    }

    private static int count(int n, String what) {
      if (n < 1 || n > DownloadRequest.MAX_CONNECTIONS) {
        throw new IllegalArgumentException(what + " must be between 1 and " + DownloadRequest.MAX_CONNECTIONS + ", not " + n);
      }
      return n;
    }

    private static String headerValue(String what, String value) {
      if (value.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
        // the value itself is not echoed: it may be a credential
        throw new IllegalArgumentException("the value of " + what + " contains a line break");
      }
      return value;
    }

    private static boolean isTokenChar(int c) {
      return c > 32 && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0;
    }
  }
}
