package dev.braid.rpc;

import dev.braid.core.rules.Rules;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * How an {@link RpcServer} listens and what it allows. Built with {@link #builder(Path, String)};
 * every setting but the download folder and the secret has a default.
 */
public final class RpcSettings {
  /** aria2's port. */
  public static final int DEFAULT_PORT = 6800;
  /** The largest request body or WebSocket message read; a bigger one is refused unread. */
  public static final int DEFAULT_MAX_REQUEST_BYTES = 1 << 20;
  /**
   * How long a call with a wrong secret waits for its answer: time lost for a guesser that waits for
   * its answers. What bounds guessing is the count of wrong secrets checked per address, ten a second.
   */
  public static final Duration DEFAULT_UNAUTHORIZED_DELAY = Duration.ofSeconds(1);
  /**
   * Connections served at once on each listening address; more wait unaccepted, in the kernel's
   * queue, until one ends (a stalled one ends by the timeouts below).
   */
  public static final int DEFAULT_MAX_CONNECTIONS = 2048;
  /** How long a request's head may take to arrive, and then its body, before its connection is closed. */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);
  /** How long a connection may go without a request (before its first, between keep-alive ones) before it is closed. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);

  private final Path downloadFolder;
  private final String secret;
  private final int port;
  private final boolean listenAll;
  private final Set<String> allowedOrigins;
  private final List<Path> allowedFolders;
  private final int maxRequestBytes;
  private final Duration unauthorizedDelay;
  private final int maxConnections;
  private final Duration requestTimeout;
  private final Duration idleTimeout;
  private final Rules rules;
  private final Path localSocket;
  private final LongSupplier nanoClock;
  private final Path keys;
  private final ServerCertificate certificate;

  private RpcSettings(Builder b) {
    this.downloadFolder = b.downloadFolder;
    this.secret = b.secret;
    this.port = b.port;
    this.listenAll = b.listenAll;
    this.allowedOrigins = Set.copyOf(b.allowedOrigins);
    this.allowedFolders = List.copyOf(b.allowedFolders);
    this.maxRequestBytes = b.maxRequestBytes;
    this.unauthorizedDelay = b.unauthorizedDelay;
    this.maxConnections = b.maxConnections;
    this.requestTimeout = b.requestTimeout;
    this.idleTimeout = b.idleTimeout;
    this.rules = b.rules;
    this.localSocket = b.localSocket;
    this.nanoClock = b.nanoClock;
    this.keys = b.keys;
    this.certificate = b.certificate;
  }

  /**
   * Settings for a server whose downloads go to {@code downloadFolder} unless a call names another
   * allowed folder, and whose calls must carry {@code secret}.
   */
  public static Builder builder(Path downloadFolder, String secret) {
    return new Builder(downloadFolder, secret);
  }

  Path downloadFolder() {
    return downloadFolder;
  }

  String secret() {
    return secret;
  }

  int port() {
    return port;
  }

  boolean listenAll() {
    return listenAll;
  }

  Set<String> allowedOrigins() {
    return allowedOrigins;
  }

  List<Path> allowedFolders() {
    return allowedFolders;
  }

  int maxRequestBytes() {
    return maxRequestBytes;
  }

  Duration unauthorizedDelay() {
    return unauthorizedDelay;
  }

  int maxConnections() {
    return maxConnections;
  }

  Duration requestTimeout() {
    return requestTimeout;
  }

  Duration idleTimeout() {
    return idleTimeout;
  }

  Rules rules() {
    return rules;
  }

  /** The Unix domain socket to serve too, or null for none. */
  Path localSocket() {
    return localSocket;
  }

  /** The clock that times wrong secrets ({@link GuessLimiter}), in nanoseconds as {@link System#nanoTime}. */
  LongSupplier nanoClock() {
    return nanoClock;
  }

  /** The API keys file ({@link KeyFile}), or null for the secret alone. */
  Path keys() {
    return keys;
  }

  /** What HTTPS is served with, or null for plain HTTP. */
  ServerCertificate certificate() {
    return certificate;
  }

  /** Configures {@link RpcSettings}. */
  public static final class Builder {
    private final Path downloadFolder;
    private final String secret;
    private int port = DEFAULT_PORT;
    private boolean listenAll;
    private final Set<String> allowedOrigins = new LinkedHashSet<>();
    private final List<Path> allowedFolders = new ArrayList<>();
    private int maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;
    private Duration unauthorizedDelay = DEFAULT_UNAUTHORIZED_DELAY;
    private int maxConnections = DEFAULT_MAX_CONNECTIONS;
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
    private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
    private Rules rules = Rules.NONE;
    private Path localSocket;
    private LongSupplier nanoClock = System::nanoTime;
    private Path keys;
    private ServerCertificate certificate;

    private Builder(Path downloadFolder, String secret) {
      if (downloadFolder == null) {
        throw new IllegalArgumentException("a download folder is needed");
      }
      if (secret == null || secret.isEmpty()) {
        throw new IllegalArgumentException("the RPC secret cannot be empty");
      }
      this.downloadFolder = downloadFolder.toAbsolutePath().normalize();
      this.secret = secret;
    }

    /** The TCP port (default {@value RpcSettings#DEFAULT_PORT}; 0: any free one, see {@link RpcServer#port()}). */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("a port is 0 to 65535, not " + port);
      }
      this.port = port;
      return this;
    }

    /** Listen on every interface instead of loopback only (127.0.0.1 and ::1, the default). */
    public Builder listenAll(boolean all) {
      this.listenAll = all;
      return this;
    }

    /** A web origin (e.g. {@code https://ariang.example}) granted CORS; no other origin is. */
    public Builder allowOrigin(String origin) {
      if (origin == null || origin.isBlank()) {
        throw new IllegalArgumentException("an origin cannot be empty");
      }
      allowedOrigins.add(origin.strip());
      return this;
    }

    /** Another folder a call may name as {@code dir} (besides the download folder and its subfolders). */
    public Builder allowFolder(Path folder) {
      if (folder == null) {
        throw new IllegalArgumentException("an allowed folder cannot be null");
      }
      allowedFolders.add(folder.toAbsolutePath().normalize());
      return this;
    }

    /** The largest request body or WebSocket message (default 1 MiB). */
    public Builder maxRequestBytes(int bytes) {
      if (bytes < 1024) {
        throw new IllegalArgumentException("a request limit under 1 KiB would refuse ordinary calls");
      }
      this.maxRequestBytes = bytes;
      return this;
    }

    /** How long an answer to a wrong secret is held back (default 1 s). */
    public Builder unauthorizedDelay(Duration delay) {
      if (delay == null || delay.isNegative()) {
        throw new IllegalArgumentException("the delay must be zero or more");
      }
      this.unauthorizedDelay = delay;
      return this;
    }

    /** Connections served at once on each listening address (default {@value RpcSettings#DEFAULT_MAX_CONNECTIONS}). */
    public Builder maxConnections(int connections) {
      if (connections < 1) {
        throw new IllegalArgumentException("at least one connection must be served, not " + connections);
      }
      this.maxConnections = connections;
      return this;
    }

    /** How long a request's head, and then its body, may take to arrive (default 10 s; whole milliseconds). */
    public Builder requestTimeout(Duration timeout) {
      this.requestTimeout = positiveMillis(timeout, "request timeout");
      return this;
    }

    /** How long a connection may go without a request before it is closed (default 30 s; whole milliseconds). */
    public Builder idleTimeout(Duration timeout) {
      this.idleTimeout = positiveMillis(timeout, "idle timeout");
      return this;
    }

    private static Duration positiveMillis(Duration d, String what) {
      if (d == null || d.toMillis() < 1 || d.toMillis() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("the " + what + " must be 1 ms to 24 days, not " + d);
      }
      return d;
    }

    /**
     * Per-host rules and categories for {@code addUri}: a host's settings come before the call's
     * options (which win), and a call without {@code dir} gets its category's folder, which must
     * still be an allowed one (the call fails otherwise). Default: {@link Rules#NONE}.
     */
    public Builder rules(Rules rules) {
      if (rules == null) {
        throw new IllegalArgumentException("rules cannot be null (Rules.NONE for none)");
      }
      this.rules = rules;
      return this;
    }

    /**
     * Serves the same calls and notifications on a Unix domain socket at {@code socket} too
     * (newline-delimited JSON-RPC, {@link LocalEndpoint}), readable by this user only; a file
     * already there is replaced. Default: none.
     */
    public Builder localSocket(Path socket) {
      if (socket == null) {
        throw new IllegalArgumentException("a local socket path cannot be null");
      }
      this.localSocket = socket.toAbsolutePath().normalize();
      return this;
    }

    /**
     * Accepts the API keys of {@code file} ({@link KeyFile}) besides the secret, each within its
     * {@link Scope}; a key added or revoked there counts from the next call on. Default: none.
     */
    public Builder keys(Path file) {
      if (file == null) {
        throw new IllegalArgumentException("a keys file path cannot be null");
      }
      this.keys = file.toAbsolutePath().normalize();
      return this;
    }

    /**
     * Serves HTTPS (and wss://) with {@code certificate} instead of plain HTTP, on the same port
     * and paths. Default: plain HTTP, which only loopback should get.
     */
    public Builder certificate(ServerCertificate certificate) {
      if (certificate == null) {
        throw new IllegalArgumentException("a certificate cannot be null (leave it unset for plain HTTP)");
      }
      this.certificate = certificate;
      return this;
    }

    /** The clock that times wrong secrets, for tests that move it by hand (default {@link System#nanoTime}). */
    Builder nanoClock(LongSupplier nanos) {
      if (nanos == null) {
        throw new IllegalArgumentException("a clock cannot be null");
      }
      this.nanoClock = nanos;
      return this;
    }

    public RpcSettings build() {
      return new RpcSettings(this);
    }
  }
}
