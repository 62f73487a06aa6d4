package dev.braid.core;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Builds a {@link DownloadRequest}; made by {@link DownloadRequest#builder(String)}, as in
 * {@code DownloadRequest.builder(url).directory(dir).connections(8).build()}. Each setter checks
 * its argument at once (an {@link IllegalArgumentException} or {@link NullPointerException} naming
 * the parameter); {@link #build()} checks the URLs and header values, which come from users, with
 * an {@link InvalidRequestException}.
 */
public final class DownloadRequestBuilder {
  // package-private: DownloadRequest copies the settings, and keeps a copy of the builder for toBuilder()
  final String url;
  Path file;
  Path directory;
  /** null: adaptive. */
  Integer connections;
  int maxConnections = DownloadRequest.DEFAULT_MAX_CONNECTIONS;
  boolean overwrite;
  boolean restartIfChanged = true;
  long minSplitSize = DownloadRequest.DEFAULT_MIN_SPLIT;
  boolean sequential;
  final List<String> mirrors = new ArrayList<>();
  Checksum checksum;
  int priority;
  long rateLimit;
  final Map<String, String> headers = new LinkedHashMap<>();
  UrlRefresher urlRefresher;
  int maxUrlRefreshes = UrlRefresher.DEFAULT_MAX_REFRESHES;
  Duration urlRefreshTimeout = UrlRefresher.DEFAULT_TIMEOUT;
  PieceHashes pieceHashes;
  long expectedLength = -1;
  String proxy;
  OutageRetry outageRetry;

  DownloadRequestBuilder(String url) {
    this.url = url;
  }

  DownloadRequestBuilder copy() {
    return copy(url);
  }

  DownloadRequestBuilder copy(String newUrl) {
    DownloadRequestBuilder b = new DownloadRequestBuilder(newUrl);
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
    b.sequential = sequential;
    b.mirrors.addAll(mirrors);
    b.checksum = checksum;
    b.priority = priority;
    b.rateLimit = rateLimit;
    b.headers.putAll(headers);
    b.pieceHashes = pieceHashes;
    b.expectedLength = expectedLength;
    b.proxy = proxy;
    b.outageRetry = outageRetry;
    return b;
  }

  /**
   * The digests of the file's pieces; null for none (the default). Each piece is hashed once its
   * bytes are on disk; a bad one is fetched again, from another mirror when there is one, and the
   * mirror that served it is used no more while another remains. A piece that fails
   * {@value DownloadRequest#PIECE_ATTEMPTS} times fails the download with an {@link IntegrityException},
   * keeping the good pieces for a resume. Checked only where the server serves ranges.
   *
   * @param pieces the pieces' digests, or null for none
   * @return this builder
   */
  public DownloadRequestBuilder pieceHashes(PieceHashes pieces) {
    this.pieceHashes = pieces;
    return this;
  }

  /**
   * The length the file must have, or -1 for any (the default); a URL serving another length is
   * passed over.
   *
   * @param bytes the length, or -1 for any
   * @return this builder
   */
  public DownloadRequestBuilder expectedLength(long bytes) {
    if (bytes < -1) {
      throw new IllegalArgumentException("the expected length must be -1 (any) or at least 0, not " + bytes);
    }
    this.expectedLength = bytes;
    return this;
  }

  /**
   * Every request of this download goes through the proxy at {@code url} (the forms
   * {@link BraidBuilder#proxy} takes: {@code http://HOST:PORT}, {@code socks5://HOST:PORT}, each
   * optionally with percent-encoded {@code USER:PASSWORD@}), or directly for {@link DownloadRequest#DIRECT},
   * whatever the engine's proxy, its {@code noProxy} and the host rules' proxies say; other
   * downloads keep those. Null for the engine's (the default). The queue stores the URL without
   * its credentials: they stay in this process (unlike {@link #header headers}, which the queue
   * stores), and a later run elsewhere (or after a restart) goes to the proxy without them.
   *
   * @param url a proxy URL, {@link DownloadRequest#DIRECT}, or null for the engine's
   * @return this builder
   * @throws IllegalArgumentException for a URL that names no usable proxy (the message masks its credentials)
   */
  public DownloadRequestBuilder proxy(String url) {
    this.proxy = ProxyUrl.checkSetting(url);
    return this;
  }

  /**
   * Asks {@code refresher} for a new URL when the link expires mid-way (see {@link UrlRefresher}).
   *
   * @param refresher what gives a new URL
   * @return this builder
   */
  public DownloadRequestBuilder urlRefresher(UrlRefresher refresher) {
    this.urlRefresher = Objects.requireNonNull(refresher, "refresher");
    return this;
  }

  /**
   * How many times one download asks its {@link #urlRefresher} (default
   * {@value UrlRefresher#DEFAULT_MAX_REFRESHES}); 0 never asks.
   *
   * @param times 0 or more
   * @return this builder
   */
  public DownloadRequestBuilder maxUrlRefreshes(int times) {
    if (times < 0) {
      throw new IllegalArgumentException("the number of URL refreshes cannot be negative: " + times);
    }
    this.maxUrlRefreshes = times;
    return this;
  }

  /**
   * How long one answer of the {@link #urlRefresher} may take before it counts as none (default
   * {@link UrlRefresher#DEFAULT_TIMEOUT}).
   *
   * @param timeout a positive duration
   * @return this builder
   */
  public DownloadRequestBuilder urlRefreshTimeout(Duration timeout) {
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("the URL refresh timeout must be positive: " + timeout);
    }
    this.urlRefreshTimeout = timeout;
    return this;
  }

  /**
   * Adds other URLs of the same file (same length and validators, or the download fails).
   *
   * @param urls the mirrors' URLs, checked by {@link #build()}
   * @return this builder
   */
  public DownloadRequestBuilder mirrors(List<String> urls) {
    Objects.requireNonNull(urls, "urls");
    for (String u : urls) {
      Objects.requireNonNull(u, "a mirror URL in urls");
    }
    mirrors.addAll(urls);
    return this;
  }

  /**
   * The digest the finished file must have, checked before its final rename; null for none (the
   * default).
   *
   * @param checksum the digest, or null for none
   * @return this builder
   */
  public DownloadRequestBuilder checksum(Checksum checksum) {
    this.checksum = checksum;
    return this;
  }

  /**
   * Higher starts first (default 0).
   *
   * @param priority any value; higher starts first
   * @return this builder
   */
  public DownloadRequestBuilder priority(int priority) {
    this.priority = priority;
    return this;
  }

  /**
   * How this download waits out outages in the queue (see {@link OutageRetry}); null (the default)
   * for the {@code Braid}'s ({@link BraidBuilder#outageRetry}). Kept in the queue with the download.
   *
   * @param policy its own policy, or null
   * @return this builder
   */
  public DownloadRequestBuilder outageRetry(OutageRetry policy) {
    this.outageRetry = policy;
    return this;
  }

  /**
   * This download's own rate limit in bytes per second (default 0: none).
   *
   * @param bytesPerSecond the limit; 0 for none
   * @return this builder
   */
  public DownloadRequestBuilder rateLimit(long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("bytesPerSecond cannot be negative, not " + bytesPerSecond);
    }
    this.rateLimit = bytesPerSecond;
    return this;
  }

  /**
   * Download to exactly this file; null for a name chosen from the server's answer (the default).
   *
   * @param file the target file, or null
   * @return this builder
   */
  public DownloadRequestBuilder file(Path file) {
    this.file = file;
    return this;
  }

  /**
   * Download into this folder under the server's name (default: the working directory). The
   * folder and its parents are created when the download starts if they do not exist. Null
   * for the default.
   *
   * @param directory the folder, or null for the default
   * @return this builder
   */
  public DownloadRequestBuilder directory(Path directory) {
    this.directory = directory;
    return this;
  }

  /**
   * Pins the number of connections, 1 to {@value DownloadRequest#MAX_CONNECTIONS} (default:
   * adaptive).
   *
   * @param connections the count
   * @return this builder
   */
  public DownloadRequestBuilder connections(int connections) {
    this.connections = connectionCount(connections, "connections");
    return this;
  }

  /**
   * Lets Braid choose the connection count from the throughput it observes (the default).
   *
   * @return this builder
   */
  public DownloadRequestBuilder adaptiveConnections() {
    this.connections = null;
    return this;
  }

  /**
   * The cap of the adaptive count, 1 to {@value DownloadRequest#MAX_CONNECTIONS} (default
   * {@value DownloadRequest#DEFAULT_MAX_CONNECTIONS}).
   *
   * @param max the cap
   * @return this builder
   */
  public DownloadRequestBuilder maxConnections(int max) {
    this.maxConnections = connectionCount(max, "max");
    return this;
  }

  /**
   * Whether an existing target file, or a part file the state database does not know, may be
   * replaced (off by default: the download fails with a {@link LocalFileException} rather than
   * destroy a file it did not write).
   *
   * @param overwrite whether to replace such a file
   * @return this builder
   */
  public DownloadRequestBuilder overwrite(boolean overwrite) {
    this.overwrite = overwrite;
    return this;
  }

  /**
   * Whether a remote file that changed since the bytes on disk were fetched (another length or
   * validator) is downloaded again from zero (on by default); off, the download fails with a
   * {@link RemoteChangedException} and keeps those bytes.
   *
   * @param restart whether to start over
   * @return this builder
   */
  public DownloadRequestBuilder restartIfChanged(boolean restart) {
    this.restartIfChanged = restart;
    return this;
  }

  /**
   * Sends {@code name: value} with every request to the URL's origin (replacing an earlier
   * header of that name, in any case); e.g. a Cookie, an Authorization or an API key header.
   *
   * @param name the header's name
   * @param value its value, checked by {@link #build()}
   * @return this builder
   */
  public DownloadRequestBuilder header(String name, String value) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
    headers.keySet().removeIf(n -> n.equalsIgnoreCase(name));
    headers.put(name, value);
    return this;
  }

  /**
   * HTTP basic authentication, sent with the first request (no 401 round trip).
   *
   * @param user the user name, without {@code :}
   * @param password the password
   * @return this builder
   */
  public DownloadRequestBuilder basicAuth(String user, String password) {
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    if (user.indexOf(':') >= 0) {
      // RFC 7617: the colon ends the user-id; one inside it would move the password's start
      throw new IllegalArgumentException("user cannot contain ':'");
    }
    String token = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    return header("Authorization", "Basic " + token);
  }

  /**
   * A bearer token ({@code Authorization: Bearer TOKEN}).
   *
   * @param token the token
   * @return this builder
   */
  public DownloadRequestBuilder bearerToken(String token) {
    Objects.requireNonNull(token, "token");
    return header("Authorization", "Bearer " + token);
  }

  /**
   * The least an idle connection splits off another's remainder (default
   * {@value DownloadRequest#DEFAULT_MIN_SPLIT} bytes); in the tail,
   * half of a remainder its owner needs a second or more for, down to 64 KiB, is taken anyway.
   *
   * @param bytes at least 1
   * @return this builder
   */
  public DownloadRequestBuilder minSplitSize(long bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException("bytes must be positive, not " + bytes);
    }
    this.minSplitSize = bytes;
    return this;
  }

  /**
   * Whether to fetch the file from its front (off by default): every connection works within a
   * window of a few tens of MiB after the first missing byte, so the part file's complete prefix
   * grows steadily and a player can open it while the rest arrives, still over several
   * connections (aria2's {@code --stream-piece-selector=inorder}). A download read through
   * {@link Braid#stream} is always fetched so.
   *
   * @param inOrder whether to fetch in order
   * @return this builder
   */
  public DownloadRequestBuilder sequential(boolean inOrder) {
    this.sequential = inOrder;
    return this;
  }

  private static int connectionCount(int n, String name) {
    if (n < 1 || n > DownloadRequest.MAX_CONNECTIONS) {
      throw new IllegalArgumentException(name + " must be between 1 and " + DownloadRequest.MAX_CONNECTIONS + ", not " + n);
    }
    return n;
  }

  /**
   * Checks the URLs and header values and makes the request; a {@code user:password@} in the URL
   * becomes a basic {@code Authorization} header (an explicit one wins) and leaves the URL, so that
   * it is never stored or printed.
   *
   * @return the request
   * @throws InvalidRequestException when a URL is malformed or not http(s), a mirror carries
   *     credentials, a header name or value is not valid, or the piece hashes do not fit the
   *     expected length
   */
  public DownloadRequest build() throws InvalidRequestException {
    List<URI> parsedMirrors = new ArrayList<>();
    for (String m : mirrors) {
      URI mirror = RequestChecks.parse(m);
      if (mirror.getRawUserInfo() != null) {
        // credentials go only to the main URL's origin; in a mirror URL they would be stored and printed
        throw new InvalidRequestException("a mirror URL cannot carry user:password@ (mirror " + RequestChecks.withoutUserInfo(mirror) + ")");
      }
      if (!parsedMirrors.contains(mirror)) {
        parsedMirrors.add(mirror);
      }
    }
    for (var h : headers.entrySet()) {
      RequestChecks.checkHeader(h.getKey(), h.getValue());
    }
    URI main = RequestChecks.parse(url);
    Map<String, String> all = new LinkedHashMap<>();
    if (main.getRawUserInfo() != null) {
      // user:password@ in the URL: sent as basic auth, and kept out of the URL that is stored and printed
      String[] up = main.getUserInfo().split(":", 2);
      String token = Base64.getEncoder().encodeToString((up[0] + ":" + (up.length > 1 ? up[1] : ""))
          .getBytes(StandardCharsets.UTF_8));
      all.put("Authorization", "Basic " + token);
      main = RequestChecks.withoutUserInfo(main);
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

  /** Builds a request derived from a valid one, which cannot fail. */
  DownloadRequest buildUnchecked() {
    try {
      return build();
    } catch (InvalidRequestException e) {
      throw new IllegalStateException("a derived request became invalid", e);
    }
  }
}
