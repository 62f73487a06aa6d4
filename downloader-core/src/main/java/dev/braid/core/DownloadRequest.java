package dev.braid.core;

import dev.braid.core.rules.HostRule;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * What to download and how. Immutable; build with {@link #builder(String)}.
 *
 * <p>Resume is automatic: a request for the same target file finds the stored download and reuses
 * its bytes when the server proves the file unchanged.
 *
 * <p>Headers and credentials ({@link Builder#header}, {@link Builder#basicAuth},
 * {@link Builder#bearerToken}, or a user and password in the URL) are sent only to the origin
 * of the URL: not to a host a redirect leads to, not to the final URL's or a mirror's host when
 * it differs. They are not recorded in the state database (give them again to resume) and not printed.
 */
public final class DownloadRequest {
  /** The cap of the adaptive connection count when the request does not set one. */
  public static final int DEFAULT_MAX_CONNECTIONS = 16;
  /** The most connections one download may open. */
  public static final int MAX_CONNECTIONS = 64;
  /** Smallest half an idle connection splits off a busy one. */
  public static final long DEFAULT_MIN_SPLIT = 1L << 20;
  /** How often one piece may fail its hash ({@link Builder#pieceHashes}) before the download fails. */
  public static final int PIECE_ATTEMPTS = 3;
  /** The {@link Builder#proxy} that connects directly, whatever the engine's proxy and the host rules say. */
  public static final String DIRECT = HostRule.DIRECT;

  private final URI uri;
  private final List<URI> mirrors;
  private final Path file;
  private final Path directory;
  private final Integer connections;
  private final int maxConnections;
  private final boolean overwrite;
  private final boolean restartIfChanged;
  private final long minSplitSize;
  private final Checksum checksum;
  private final int priority;
  private final long rateLimit;
  private final Builder origin;
  private final Map<String, String> headers;
  private final UrlRefresher urlRefresher;
  private final int maxUrlRefreshes;
  private final Duration urlRefreshTimeout;
  private final PieceHashes pieceHashes;
  private final long expectedLength;
  private final String proxy;

  private DownloadRequest(Builder b, URI uri, List<URI> mirrors, Map<String, String> headers) {
    this.origin = b.copy();
    this.headers = Map.copyOf(headers);
    this.uri = uri;
    this.mirrors = List.copyOf(mirrors);
    this.file = b.file == null ? null : b.file.toAbsolutePath().normalize();
    this.directory = b.directory == null ? null : b.directory.toAbsolutePath().normalize();
    this.checksum = b.checksum;
    this.priority = b.priority;
    this.rateLimit = b.rateLimit;
    this.connections = b.connections;
    this.maxConnections = b.maxConnections;
    this.overwrite = b.overwrite;
    this.restartIfChanged = b.restartIfChanged;
    this.minSplitSize = b.minSplitSize;
    this.urlRefresher = b.urlRefresher;
    this.maxUrlRefreshes = b.maxUrlRefreshes;
    this.urlRefreshTimeout = b.urlRefreshTimeout;
    this.pieceHashes = b.pieceHashes;
    this.expectedLength = b.expectedLength;
    this.proxy = b.proxy;
  }

  /**
   * Starts a request for {@code url} (http or https; checked by {@link Builder#build()}).
   *
   * @throws NullPointerException if {@code url} is null
   */
  public static Builder builder(String url) {
    return new Builder(Objects.requireNonNull(url, "url"));
  }

  public URI uri() {
    return uri;
  }

  /** The exact target file, when the caller named one. */
  public Optional<Path> file() {
    return Optional.ofNullable(file);
  }

  /**
   * The folder for a name chosen from the server's answer (ignored when {@link #file()} is set):
   * the one the request names, else the working directory.
   */
  public Path directory() {
    return directory != null ? directory : Path.of("").toAbsolutePath();
  }

  /** Whether the request names a folder (otherwise {@code Braid}'s download folder applies). */
  public boolean directoryGiven() {
    return directory != null || file != null;
  }

  /** Other URLs of the same file; segments are spread over them by measured speed. */
  public List<URI> mirrors() {
    return mirrors;
  }

  /** The digest the finished file must have, if one was given. */
  public Optional<Checksum> checksum() {
    return Optional.ofNullable(checksum);
  }

  /** The digests of the file's pieces, checked as pieces complete, if given (a Metalink's pieces). */
  public Optional<PieceHashes> pieceHashes() {
    return Optional.ofNullable(pieceHashes);
  }

  /** The length the file must have (a Metalink's size); a URL serving another length is not used. -1 for any. */
  public long expectedLength() {
    return expectedLength;
  }

  /**
   * This download's own proxy URL (credentials included, as given) or {@link #DIRECT}; empty when
   * the engine's proxy applies.
   */
  public Optional<String> proxy() {
    return Optional.ofNullable(proxy);
  }

  /** Higher starts first in the queue; equal priorities start in submission order. */
  public int priority() {
    return priority;
  }

  /** This download's own rate limit in bytes per second, 0 for none (the {@code Braid}-wide one applies too). */
  public long rateLimit() {
    return rateLimit;
  }

  /**
   * Headers to send to the URL's origin only (custom headers and credentials), by name as given.
   * A redirect to another host, a mirror on another host and the state database never see them.
   */
  public Map<String, String> headers() {
    return headers;
  }

  @Override
  public String toString() {
    // header values may be credentials: never part of a printable form
    return "DownloadRequest[" + uri + (headers.isEmpty() ? "" : ", headers " + headers.keySet()) + "]";
  }

  /** A builder holding this request's settings, to derive a changed request. */
  public Builder toBuilder() {
    return origin.copy();
  }

  /** This request with another main URL (a refreshed link); everything else stays. */
  public DownloadRequest withUri(URI newUri) throws InvalidRequestException {
    Builder b = origin.copy(newUri.toString());
    return b.build();
  }

  /** Asked for a new URL when the link expires mid-way; empty when none was set. */
  public Optional<UrlRefresher> urlRefresher() {
    return Optional.ofNullable(urlRefresher);
  }

  /** How many times the {@link #urlRefresher()} is asked per download. */
  public int maxUrlRefreshes() {
    return maxUrlRefreshes;
  }

  /** How long one answer of the {@link #urlRefresher()} may take. */
  public Duration urlRefreshTimeout() {
    return urlRefreshTimeout;
  }

  /** A fixed connection count, or empty when Braid adapts the count to the throughput it observes. */
  public OptionalInt connections() {
    return connections == null ? OptionalInt.empty() : OptionalInt.of(connections);
  }

  /** The cap of the adaptive connection count. */
  public int maxConnections() {
    return maxConnections;
  }

  /** Whether an existing target file (or a part file this store does not know) may be replaced. */
  public boolean overwrite() {
    return overwrite;
  }

  /** Whether a remote file that changed may be downloaded again from zero; if not, the download fails instead. */
  public boolean restartIfChanged() {
    return restartIfChanged;
  }

  public long minSplitSize() {
    return minSplitSize;
  }

  /**
   * Builds a {@link DownloadRequest}. Each setter checks its argument at once (an
   * {@link IllegalArgumentException} or {@link NullPointerException} naming the parameter);
   * {@link #build()} checks the URLs and header values, which come from users, with an
   * {@link InvalidRequestException}.
   */
  public static final class Builder {
    private final String url;
    private Path file;
    private Path directory;
    /** null: adaptive. */
    private Integer connections;
    private int maxConnections = DEFAULT_MAX_CONNECTIONS;
    private boolean overwrite;
    private boolean restartIfChanged = true;
    private long minSplitSize = DEFAULT_MIN_SPLIT;
    private final List<String> mirrors = new ArrayList<>();
    private Checksum checksum;
    private int priority;
    private long rateLimit;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private UrlRefresher urlRefresher;
    private int maxUrlRefreshes = UrlRefresher.DEFAULT_MAX_REFRESHES;
    private Duration urlRefreshTimeout = UrlRefresher.DEFAULT_TIMEOUT;
    private PieceHashes pieceHashes;
    private long expectedLength = -1;
    private String proxy;

    private Builder(String url) {
      this.url = url;
    }

    private Builder copy() {
      return copy(url);
    }

    private Builder copy(String newUrl) {
      Builder b = new Builder(newUrl);
      b.urlRefresher = urlRefresher;
      b.maxUrlRefreshes = maxUrlRefreshes;
      b.urlRefreshTimeout = urlRefreshTimeout;
      b.file = file;
      b.directory = directory;
      b.connections = connections;
      b.maxConnections = maxConnections;
      b.overwrite = overwrite;
      b.restartIfChanged = restartIfChanged;
      b.minSplitSize = minSplitSize;
      b.mirrors.addAll(mirrors);
      b.checksum = checksum;
      b.priority = priority;
      b.rateLimit = rateLimit;
      b.headers.putAll(headers);
      b.pieceHashes = pieceHashes;
      b.expectedLength = expectedLength;
      b.proxy = proxy;
      return b;
    }

    /**
     * The digests of the file's pieces; null for none (the default). Each piece is hashed once its
     * bytes are on disk; a bad one is fetched again, from another mirror when there is one, and the
     * mirror that served it is used no more while another remains. A piece that fails
     * {@value DownloadRequest#PIECE_ATTEMPTS} times fails the download with an {@link IntegrityException},
     * keeping the good pieces for a resume. Checked only where the server serves ranges.
     */
    public Builder pieceHashes(PieceHashes pieces) {
      this.pieceHashes = pieces;
      return this;
    }

    /** The length the file must have, or -1 for any (the default); a URL serving another length is passed over. */
    public Builder expectedLength(long bytes) {
      if (bytes < -1) {
        throw new IllegalArgumentException("the expected length must be -1 (any) or at least 0, not " + bytes);
      }
      this.expectedLength = bytes;
      return this;
    }

    /**
     * Every request of this download goes through the proxy at {@code url} (the forms
     * {@link BraidBuilder#proxy} takes: {@code http://HOST:PORT}, {@code socks5://HOST:PORT}, each
     * optionally with percent-encoded {@code USER:PASSWORD@}), or directly for {@link #DIRECT},
     * whatever the engine's proxy, its {@code noProxy} and the host rules' proxies say; other
     * downloads keep those. Null for the engine's (the default). The queue stores the URL without
     * its credentials: they stay in this process, like {@link #header headers}, and a later run
     * elsewhere (or after a restart) goes to the proxy without them.
     *
     * @throws IllegalArgumentException for a URL that names no usable proxy (the message masks its credentials)
     */
    public Builder proxy(String url) {
      this.proxy = DownloadProxy.check(url);
      return this;
    }

    /** Asks {@code refresher} for a new URL when the link expires mid-way (see {@link UrlRefresher}). */
    public Builder urlRefresher(UrlRefresher refresher) {
      this.urlRefresher = Objects.requireNonNull(refresher, "refresher");
      return this;
    }

    /** How many times one download asks its {@link #urlRefresher}; 0 never asks. */
    public Builder maxUrlRefreshes(int times) {
      if (times < 0) {
        throw new IllegalArgumentException("the number of URL refreshes cannot be negative: " + times);
      }
      this.maxUrlRefreshes = times;
      return this;
    }

    /** How long one answer of the {@link #urlRefresher} may take before it counts as none. */
    public Builder urlRefreshTimeout(Duration timeout) {
      if (timeout == null || timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("the URL refresh timeout must be positive: " + timeout);
      }
      this.urlRefreshTimeout = timeout;
      return this;
    }

    /** Adds other URLs of the same file (same length and validators, or the download fails). */
    public Builder mirrors(List<String> urls) {
      Objects.requireNonNull(urls, "urls");
      for (String u : urls) {
        Objects.requireNonNull(u, "a mirror URL in urls");
      }
      mirrors.addAll(urls);
      return this;
    }

    /** The digest the finished file must have, checked before its final rename; null for none (the default). */
    public Builder checksum(Checksum checksum) {
      this.checksum = checksum;
      return this;
    }

    /** Higher starts first (default 0). */
    public Builder priority(int priority) {
      this.priority = priority;
      return this;
    }

    /** This download's own rate limit in bytes per second (default 0: none). */
    public Builder rateLimit(long bytesPerSecond) {
      if (bytesPerSecond < 0) {
        throw new IllegalArgumentException("bytesPerSecond cannot be negative, not " + bytesPerSecond);
      }
      this.rateLimit = bytesPerSecond;
      return this;
    }

    /** Download to exactly this file; null for a name chosen from the server's answer (the default). */
    public Builder file(Path file) {
      this.file = file;
      return this;
    }

    /**
     * Download into this folder under the server's name (default: the working directory). The
     * folder and its parents are created when the download starts if they do not exist. Null
     * for the default.
     */
    public Builder directory(Path directory) {
      this.directory = directory;
      return this;
    }

    /** Pins the number of connections, 1 to {@value DownloadRequest#MAX_CONNECTIONS} (default: adaptive). */
    public Builder connections(int connections) {
      this.connections = connectionCount(connections, "connections");
      return this;
    }

    /** Lets Braid choose the connection count from the throughput it observes (the default). */
    public Builder adaptiveConnections() {
      this.connections = null;
      return this;
    }

    /** The cap of the adaptive count, 1 to {@value DownloadRequest#MAX_CONNECTIONS} (default {@value DownloadRequest#DEFAULT_MAX_CONNECTIONS}). */
    public Builder maxConnections(int max) {
      this.maxConnections = connectionCount(max, "max");
      return this;
    }

    public Builder overwrite(boolean overwrite) {
      this.overwrite = overwrite;
      return this;
    }

    public Builder restartIfChanged(boolean restart) {
      this.restartIfChanged = restart;
      return this;
    }

    /**
     * Sends {@code name: value} with every request to the URL's origin (replacing an earlier
     * header of that name, in any case); e.g. a Cookie, an Authorization or an API key header.
     */
    public Builder header(String name, String value) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
      headers.keySet().removeIf(n -> n.equalsIgnoreCase(name));
      headers.put(name, value);
      return this;
    }

    /** HTTP basic authentication, sent with the first request (no 401 round trip). */
    public Builder basicAuth(String user, String password) {
      Objects.requireNonNull(user, "user");
      Objects.requireNonNull(password, "password");
      if (user.indexOf(':') >= 0) {
        // RFC 7617: the colon ends the user-id; one inside it would move the password's start
        throw new IllegalArgumentException("user cannot contain ':'");
      }
      String token = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
      return header("Authorization", "Basic " + token);
    }

    /** A bearer token ({@code Authorization: Bearer TOKEN}). */
    public Builder bearerToken(String token) {
      Objects.requireNonNull(token, "token");
      return header("Authorization", "Bearer " + token);
    }

    /**
     * The least an idle connection splits off another's remainder (default 1 MiB); in the tail,
     * half of a remainder its owner needs a second or more for, down to 64 KiB, is taken anyway.
     */
    public Builder minSplitSize(long bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("bytes must be positive, not " + bytes);
      }
      this.minSplitSize = bytes;
      return this;
    }

    private static int connectionCount(int n, String name) {
      if (n < 1 || n > MAX_CONNECTIONS) {
        throw new IllegalArgumentException(name + " must be between 1 and " + MAX_CONNECTIONS + ", not " + n);
      }
      return n;
    }

    public DownloadRequest build() throws InvalidRequestException {
      List<URI> parsedMirrors = new ArrayList<>();
      for (String m : mirrors) {
        URI mirror = parse(m);
        if (mirror.getRawUserInfo() != null) {
          // credentials go only to the main URL's origin; in a mirror URL they would be stored and printed
          throw new InvalidRequestException("a mirror URL cannot carry user:password@ (mirror " + withoutUserInfo(mirror) + ")");
        }
        if (!parsedMirrors.contains(mirror)) {
          parsedMirrors.add(mirror);
        }
      }
      for (var h : headers.entrySet()) {
        checkHeader(h.getKey(), h.getValue());
      }
      URI main = parse(url);
      Map<String, String> all = new LinkedHashMap<>();
      if (main.getRawUserInfo() != null) {
        // user:password@ in the URL: sent as basic auth, and kept out of the URL that is stored and printed
        String[] up = main.getUserInfo().split(":", 2);
        String token = Base64.getEncoder().encodeToString((up[0] + ":" + (up.length > 1 ? up[1] : ""))
            .getBytes(StandardCharsets.UTF_8));
        all.put("Authorization", "Basic " + token);
        main = withoutUserInfo(main);
      }
      // explicit headers win over credentials in the URL
      headers.forEach((n, v) -> {
        all.keySet().removeIf(k -> k.equalsIgnoreCase(n));
        all.put(n, v);
      });
      parsedMirrors.remove(main);
      if (pieceHashes != null && expectedLength >= 0 && !pieceHashes.fits(expectedLength)) {
        throw new InvalidRequestException(pieceHashes + " do not cover a file of " + expectedLength + " bytes");
      }
      return new DownloadRequest(this, main, parsedMirrors, all);
    }

    private static void checkHeader(String name, String value) throws InvalidRequestException {
      if (name.isEmpty() || !name.chars().allMatch(Builder::isTokenChar)) {
        throw new InvalidRequestException("not a valid header name: " + name);
      }
      if (value.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
        // a line break would let a value smuggle in further headers; the value itself is not echoed
        throw new InvalidRequestException("the value of header " + name + " contains a line break");
      }
    }

    private static boolean isTokenChar(int c) {
      return c > 32 && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0;
    }

    private static URI withoutUserInfo(URI uri) {
      String raw = uri.toString();
      int at = raw.indexOf('@', raw.indexOf("://") + 3);
      return URI.create(raw.substring(0, raw.indexOf("://") + 3) + raw.substring(at + 1));
    }

    /** Builds a request derived from a valid one, which cannot fail. */
    DownloadRequest buildUnchecked() {
      try {
        return build();
      } catch (InvalidRequestException e) {
        throw new IllegalStateException("a derived request became invalid", e);
      }
    }

    private static final Pattern USER_INFO = Pattern.compile("://[^/@?#]*@");

    private static URI parse(String given) throws InvalidRequestException {
      if (given == null || given.isBlank()) {
        throw new InvalidRequestException("no URL given");
      }
      URI uri;
      try {
        uri = new URI(given.trim());
      } catch (URISyntaxException e) {
        throw new InvalidRequestException("malformed URL " + masked(given) + ": " + e.getReason(), e);
      }
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https")) {
        throw new InvalidRequestException(scheme.isEmpty()
            ? "malformed URL " + masked(given) + ": it needs http:// or https://"
            : "unsupported scheme " + scheme + ": in " + masked(given) + " (Braid downloads http and https)");
      }
      if (uri.getHost() == null || uri.getHost().isEmpty()) {
        throw new InvalidRequestException("malformed URL " + masked(given) + ": no host");
      }
      return uri;
    }

    /** The URL as error messages show it: a password it may carry is masked. */
    private static String masked(String given) {
      return USER_INFO.matcher(given).replaceFirst("://***@");
    }
  }
}
