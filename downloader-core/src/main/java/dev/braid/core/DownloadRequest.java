package dev.braid.core;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What to download and how. Immutable; build with {@link #builder(String)}.
 *
 * <p>Resume is automatic: a request for the same target file finds the stored download and reuses
 * its bytes when the server proves the file unchanged.
 */
public final class DownloadRequest {
  /** The cap of the adaptive connection count when the request does not set one. */
  public static final int DEFAULT_MAX_CONNECTIONS = 16;
  /** The most connections one download may open. */
  public static final int MAX_CONNECTIONS = 64;
  /** Smallest half an idle connection splits off a busy one. */
  public static final long DEFAULT_MIN_SPLIT = 1L << 20;

  private final URI uri;
  private final Path file;
  private final Path directory;
  private final Integer connections;
  private final int maxConnections;
  private final boolean overwrite;
  private final boolean restartIfChanged;
  private final long minSplitSize;

  private DownloadRequest(Builder b, URI uri) {
    this.uri = uri;
    this.file = b.file == null ? null : b.file.toAbsolutePath().normalize();
    this.directory = (b.directory == null ? Path.of("") : b.directory).toAbsolutePath().normalize();
    this.connections = b.connections;
    this.maxConnections = b.maxConnections;
    this.overwrite = b.overwrite;
    this.restartIfChanged = b.restartIfChanged;
    this.minSplitSize = b.minSplitSize;
  }

  /** Starts a request for {@code url} (http or https). */
  public static Builder builder(String url) {
    return new Builder(url);
  }

  public URI uri() {
    return uri;
  }

  /** The exact target file, when the caller named one. */
  public Optional<Path> file() {
    return Optional.ofNullable(file);
  }

  /** The folder for a name chosen from the server's answer (ignored when {@link #file()} is set). */
  public Path directory() {
    return directory;
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

  /** Builds a {@link DownloadRequest}; {@link #build()} checks the URL and the options. */
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

    private Builder(String url) {
      this.url = url;
    }

    /** Download to exactly this file. */
    public Builder file(Path file) {
      this.file = file;
      return this;
    }

    /** Download into this folder under the server's name (default: the working directory). */
    public Builder directory(Path directory) {
      this.directory = directory;
      return this;
    }

    /** Pins the number of connections, 1 to {@value DownloadRequest#MAX_CONNECTIONS} (default: adaptive). */
    public Builder connections(int connections) {
      this.connections = connections;
      return this;
    }

    /** Lets Braid choose the connection count from the throughput it observes (the default). */
    public Builder adaptiveConnections() {
      this.connections = null;
      return this;
    }

    /** The cap of the adaptive count, 1 to {@value DownloadRequest#MAX_CONNECTIONS} (default {@value DownloadRequest#DEFAULT_MAX_CONNECTIONS}). */
    public Builder maxConnections(int max) {
      this.maxConnections = max;
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

    public Builder minSplitSize(long bytes) {
      this.minSplitSize = bytes;
      return this;
    }

    public DownloadRequest build() throws InvalidRequestException {
      if (connections != null && (connections < 1 || connections > MAX_CONNECTIONS)) {
        throw new InvalidRequestException("connections must be between 1 and " + MAX_CONNECTIONS + ", not " + connections);
      }
      if (maxConnections < 1 || maxConnections > MAX_CONNECTIONS) {
        throw new InvalidRequestException("the connection cap must be between 1 and " + MAX_CONNECTIONS + ", not " + maxConnections);
      }
      if (minSplitSize < 1) {
        throw new InvalidRequestException("the minimum split size must be positive");
      }
      return new DownloadRequest(this, parse(url));
    }

    private static URI parse(String url) throws InvalidRequestException {
      if (url == null || url.isBlank()) {
        throw new InvalidRequestException("no URL given");
      }
      URI uri;
      try {
        uri = new URI(url.trim());
      } catch (URISyntaxException e) {
        throw new InvalidRequestException("malformed URL: " + e.getMessage(), e);
      }
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https")) {
        throw new InvalidRequestException(scheme.isEmpty()
            ? "malformed URL " + url + ": it needs http:// or https://"
            : "unsupported scheme " + scheme + ": in " + url + " (Braid downloads http and https)");
      }
      if (uri.getHost() == null || uri.getHost().isEmpty()) {
        throw new InvalidRequestException("malformed URL " + url + ": no host");
      }
      return uri;
    }
  }
}
