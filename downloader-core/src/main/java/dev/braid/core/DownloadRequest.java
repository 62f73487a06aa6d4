package dev.braid.core;

import dev.braid.core.rules.HostRule;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What to download and how. Immutable; build with {@link #builder(String)}.
 *
 * <p>Resume is automatic: a request for the same target file finds the stored download and reuses
 * its bytes when the server proves the file unchanged.
 *
 * <p>Headers and credentials ({@link DownloadRequestBuilder#header}, {@link DownloadRequestBuilder#basicAuth},
 * {@link DownloadRequestBuilder#bearerToken}, or a user and password in the URL) are sent only to the origin
 * of the URL: not to a host a redirect leads to, not to the final URL's or a mirror's host when
 * it differs. They are never printed. The queue keeps them in the state database, apart from
 * its entries, so that a download resumes with them after a restart (see {@link Download#headers}).
 */
public final class DownloadRequest {
  /** The cap of the adaptive connection count when the request does not set one. */
  public static final int DEFAULT_MAX_CONNECTIONS = 16;
  /** The most connections one download may open. */
  public static final int MAX_CONNECTIONS = 64;
  /** Smallest half an idle connection splits off a busy one. */
  public static final long DEFAULT_MIN_SPLIT = 1L << 20;
  /** How often one piece may fail its hash ({@link DownloadRequestBuilder#pieceHashes}) before the download fails. */
  public static final int PIECE_ATTEMPTS = 3;
  /** The {@link DownloadRequestBuilder#proxy} that connects directly, whatever the engine's proxy and the host rules say. */
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
  private final boolean sequential;
  private final Checksum checksum;
  private final int priority;
  private final long rateLimit;
  private final OutageRetry outageRetry;
  private final DownloadRequestBuilder origin;
  private final Map<String, String> headers;
  private final UrlRefresher urlRefresher;
  private final int maxUrlRefreshes;
  private final Duration urlRefreshTimeout;
  private final PieceHashes pieceHashes;
  private final long expectedLength;
  private final String proxy;

  DownloadRequest(DownloadRequestBuilder b, URI uri, List<URI> mirrors, Map<String, String> headers) {
    this.origin = b.copy();
    this.headers = Map.copyOf(headers);
    this.uri = uri;
    this.mirrors = List.copyOf(mirrors);
    this.file = b.file == null ? null : b.file.toAbsolutePath().normalize();
    this.directory = b.directory == null ? null : b.directory.toAbsolutePath().normalize();
    this.checksum = b.checksum;
    this.priority = b.priority;
    this.rateLimit = b.rateLimit;
    this.outageRetry = b.outageRetry;
    this.connections = b.connections;
    this.maxConnections = b.maxConnections;
    this.overwrite = b.overwrite;
    this.restartIfChanged = b.restartIfChanged;
    this.minSplitSize = b.minSplitSize;
    this.sequential = b.sequential;
    this.urlRefresher = b.urlRefresher;
    this.maxUrlRefreshes = b.maxUrlRefreshes;
    this.urlRefreshTimeout = b.urlRefreshTimeout;
    this.pieceHashes = b.pieceHashes;
    this.expectedLength = b.expectedLength;
    this.proxy = b.proxy;
  }

  /**
   * Starts a request for {@code url} (http or https; checked by {@link DownloadRequestBuilder#build()}).
   *
   * @param url the file's URL
   * @return a builder with every other setting at its default
   * @throws NullPointerException if {@code url} is null
   */
  public static DownloadRequestBuilder builder(String url) {
    return new DownloadRequestBuilder(Objects.requireNonNull(url, "url"));
  }

  /** {@return the main URL, parsed, without credentials (they became an {@code Authorization} header)} */
  public URI uri() {
    return uri;
  }

  /** {@return the exact target file, when the caller named one} */
  public Optional<Path> file() {
    return Optional.ofNullable(file);
  }

  /**
   * {@return the folder for a name chosen from the server's answer (ignored when {@link #file()} is
   * set): the one the request names, else the working directory}
   */
  public Path directory() {
    return directory != null ? directory : Path.of("").toAbsolutePath();
  }

  /** {@return whether the request names a folder (otherwise {@code Braid}'s download folder applies)} */
  public boolean directoryGiven() {
    return directory != null || file != null;
  }

  /** {@return other URLs of the same file; segments are spread over them by measured speed} */
  public List<URI> mirrors() {
    return mirrors;
  }

  /** {@return the digest the finished file must have, if one was given} */
  public Optional<Checksum> checksum() {
    return Optional.ofNullable(checksum);
  }

  /** {@return the digests of the file's pieces, checked as pieces complete, if given (a Metalink's pieces)} */
  public Optional<PieceHashes> pieceHashes() {
    return Optional.ofNullable(pieceHashes);
  }

  /**
   * {@return the length the file must have (a Metalink's size); a URL serving another length is not
   * used} -1 for any.
   */
  public long expectedLength() {
    return expectedLength;
  }

  /**
   * {@return this download's own proxy URL (credentials included, as given) or {@link #DIRECT};
   * empty when the engine's proxy applies}
   */
  public Optional<String> proxy() {
    return Optional.ofNullable(proxy);
  }

  /** {@return its priority in the queue: higher starts first; equal priorities start in submission order} */
  public int priority() {
    return priority;
  }

  /** {@return how this download waits out outages in the queue; empty for the {@code Braid}'s policy} */
  public Optional<OutageRetry> outageRetry() {
    return Optional.ofNullable(outageRetry);
  }

  /**
   * {@return this download's own rate limit in bytes per second, 0 for none (the {@code Braid}-wide
   * one applies too)}
   */
  public long rateLimit() {
    return rateLimit;
  }

  /**
   * {@return headers to send to the URL's origin only (custom headers and credentials), by name as
   * given} A redirect to another host, a mirror on another host and the state database never see
   * them.
   */
  public Map<String, String> headers() {
    return headers;
  }

  @Override
  public String toString() {
    // header values may be credentials: never part of a printable form
    return "DownloadRequest[" + uri + (headers.isEmpty() ? "" : ", headers " + headers.keySet()) + "]";
  }

  /** {@return a builder holding this request's settings, to derive a changed request} */
  public DownloadRequestBuilder toBuilder() {
    return origin.copy();
  }

  /**
   * {@return this request with another main URL (a refreshed link); everything else stays}
   *
   * @param newUri the new main URL
   * @throws InvalidRequestException when {@code newUri} is not an http or https URL
   */
  public DownloadRequest withUri(URI newUri) throws InvalidRequestException {
    DownloadRequestBuilder b = origin.copy(newUri.toString());
    return b.build();
  }

  /**
   * {@return this request with {@code newHeaders} in place of its headers (credentials its URL
   * carried included); everything else stays}
   *
   * @param newHeaders the headers, by name, already checked (a stored or a built request's)
   */
  public DownloadRequest withHeaders(Map<String, String> newHeaders) {
    // from the URL as kept, without user:password@: its credentials are among the headers replaced
    DownloadRequestBuilder b = origin.copy(uri.toString());
    b.headers.clear();
    newHeaders.forEach(b::header);
    return b.buildUnchecked();
  }

  /**
   * Asked for a new URL when the link expires mid-way; empty when none was set.
   *
   * @return what is asked for a new URL when the link expires mid-way; empty when none was set
   */
  public Optional<UrlRefresher> urlRefresher() {
    return Optional.ofNullable(urlRefresher);
  }

  /** {@return how many times the {@link #urlRefresher()} is asked per download} */
  public int maxUrlRefreshes() {
    return maxUrlRefreshes;
  }

  /** {@return how long one answer of the {@link #urlRefresher()} may take} */
  public Duration urlRefreshTimeout() {
    return urlRefreshTimeout;
  }

  /** {@return a fixed connection count, or empty when Braid adapts the count to the throughput it observes} */
  public OptionalInt connections() {
    return connections == null ? OptionalInt.empty() : OptionalInt.of(connections);
  }

  /** {@return the cap of the adaptive connection count} */
  public int maxConnections() {
    return maxConnections;
  }

  /** {@return whether an existing target file (or a part file this store does not know) may be replaced} */
  public boolean overwrite() {
    return overwrite;
  }

  /**
   * {@return whether a remote file that changed may be downloaded again from zero; if not, the
   * download fails instead}
   */
  public boolean restartIfChanged() {
    return restartIfChanged;
  }

  /** {@return the least an idle connection splits off another's remainder, in bytes} */
  public long minSplitSize() {
    return minSplitSize;
  }

  /**
   * {@return whether the file is fetched from its front: every connection works within a window
   * after the first missing byte, so the file's complete prefix grows steadily}
   */
  public boolean sequential() {
    return sequential;
  }
}
