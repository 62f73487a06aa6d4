package dev.braid.client.remote;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How a face finds the daemon of its state database, and how the daemon tells it where it is: the daemon holds {@link EngineLock}'s
 * lock and writes its port to {@code STATE_DB.rpc-port} once it listens, and serves the same
 * calls on its local socket {@code STATE_DB.rpc-socket}; the secret is in {@link SecretFile}'s file. A free lock means no daemon, whatever a stale port file says
 * (a daemon ended by SIGKILL leaves one).
 */
public final class DaemonLink {
  /**
   * A daemon to hand the work to: its port, its secret, its local socket ({@code socket}, null
   * when it serves none), which clients use first, the folders its RPC may write to (empty when
   * it did not say), and the SHA-256 of the certificate its port serves TLS with (null: plain HTTP).
   */
  public record Endpoint(int port, String secret, Path socket, List<Path> folders, String certificate) {
    /**
     * Copies the folders.
     *
     * @param port its port on loopback
     * @param secret its RPC secret
     * @param socket its local socket, or null
     * @param folders the folders its RPC may write to
     * @param certificate the SHA-256 (hex) of its TLS certificate, which a client pins; null when it serves plain HTTP
     */
    public Endpoint {
      folders = List.copyOf(folders);
    }

    /** A daemon whose port serves plain HTTP. */
    public Endpoint(int port, String secret, Path socket, List<Path> folders) {
      this(port, secret, socket, folders, null);
    }
  }

  /** The port file's line that names a folder the daemon's RPC may write to. */
  private static final String FOLDER = "dir=";
  /** The port file's line with the SHA-256 of the certificate the port serves TLS with; none when it serves plain HTTP. */
  public static final String CERTIFICATE = "tls-sha256=";

  private DaemonLink() {}

  /**
   * The anchor ({@link StateAnchor}) of the state database a command line names with
   * {@code --state-db}, else the default one: read before picocli parses, so that a client of a
   * daemon skips the store's warm-up.
   */
  public static Path stateDatabaseOf(String... args) {
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--state-db") && i + 1 < args.length) {
        return StateAnchor.of(args[i + 1]);
      }
      if (args[i].startsWith("--state-db=")) {
        return StateAnchor.of(args[i].substring("--state-db=".length()));
      }
    }
    return dev.braid.core.Braid.defaultStateDatabase();
  }

  /** The file the daemon writes its port (and writable folders) to, beside {@code stateDatabase}. */
  public static Path portFileOf(Path stateDatabase) {
    return stateDatabase.resolveSibling(stateDatabase.getFileName() + ".rpc-port");
  }

  /** The daemon's Unix domain socket: newline-delimited JSON-RPC, the port's calls without HTTP. */
  public static Path socketFileOf(Path stateDatabase) {
    return stateDatabase.resolveSibling(stateDatabase.getFileName() + ".rpc-socket");
  }

  /** The daemon's relay of whole command lines (the command line's launcher), which {@code braid get} and the queue commands use first. */
  public static Path relaySocketOf(Path stateDatabase) {
    return stateDatabase.resolveSibling(stateDatabase.getFileName() + ".cli-socket");
  }

  /**
   * Written by the daemon once it listens: its port, then a {@code dir=FOLDER} line for each folder
   * its RPC may write to (named, so that a later field is a line an older client skips), and a
   * {@code tls-sha256=HEX} line when it serves TLS with the certificate of that SHA-256
   * ({@code certificate}, null for none); deleted when it stops.
   */
  public static void announce(Path stateDatabase, int port, List<Path> folders, String certificate) throws IOException {
    Path file = portFileOf(stateDatabase);
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    StringBuilder text = new StringBuilder().append(port).append('\n');
    folders.forEach(f -> text.append(FOLDER).append(f).append('\n'));
    if (certificate != null) {
      text.append(CERTIFICATE).append(certificate).append('\n');
    }
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  /** Deletes the port file, as the daemon stops. */
  public static void withdraw(Path stateDatabase) throws IOException {
    Files.deleteIfExists(portFileOf(stateDatabase));
  }

  /**
   * The daemon running the queue of {@code stateDatabase}, if one does and has announced its
   * port. Probing takes the lock for an instant when it is free: a daemon starting in that
   * instant refuses as if another ran (exit 9), and can simply be started again.
   */
  public static Optional<Endpoint> find(Path stateDatabase) {
    Path lock = EngineLock.fileOf(stateDatabase);
    Path port = portFileOf(stateDatabase);
    if (!Files.exists(lock) || !Files.exists(port)) {
      return Optional.empty();
    }
    try (FileChannel ch = FileChannel.open(lock, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      FileLock probe;
      try {
        probe = ch.tryLock();
      } catch (OverlappingFileLockException e) {
        // this very process holds it: a daemon's own JVM runs no client
        return Optional.empty();
      }
      if (probe != null) {
        probe.release();
        return Optional.empty();
      }
      List<String> lines = Files.readAllLines(port, StandardCharsets.UTF_8);
      int p = Integer.parseInt(lines.get(0).strip());
      // a loop, not a stream: every client runs this before its first download, and a lambda
      // the archive's training never linked costs its link at each start
      List<Path> folders = new ArrayList<>();
      String certificate = null;
      for (String line : lines.subList(1, lines.size())) {
        if (line.startsWith(FOLDER)) {
          folders.add(Path.of(line.substring(FOLDER.length())));
        } else if (line.startsWith(CERTIFICATE)) {
          certificate = line.substring(CERTIFICATE.length()).strip();
        }
      }
      // a daemon started with --rpc-secret and no secret file: its secret is not ours to know
      Path socket = socketFileOf(stateDatabase);
      return Optional.of(new Endpoint(p, SecretFile.read(SecretFile.fileOf(stateDatabase)),
          Files.exists(socket) ? socket : null, folders, certificate));
    } catch (IOException | RuntimeException e) {
      // unreadable, or no secret file, or one others may read (refused): no daemon this command can
      // talk to, so it runs in-process
      return Optional.empty();
    }
  }
}
