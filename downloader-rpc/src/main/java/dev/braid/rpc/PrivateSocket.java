package dev.braid.rpc;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.function.Consumer;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/**
 * A listening Unix domain socket only this user can connect to: bound in a folder only this user
 * can enter, made 0600, then moved into place, so that there is no moment when another user could
 * connect; and a connection whose peer the kernel names as another user (SO_PEERCRED) is closed
 * unheard, should the file's permissions ever be opened. A session on it is therefore this user's
 * own, which has the state database, the secret file and the daemon's command line already: the
 * command relay needs no secret. The daemon's local JSON-RPC socket and the CLI's command relay
 * are each one.
 *
 * <p>Threads: {@link #start} starts one accept thread, which hands each connection to its handler
 * (the handler decides whether to serve or close it) and ends when {@link #close()} closes the
 * socket.
 */
public final class PrivateSocket implements AutoCloseable {
  private final Path path;
  private final ServerSocketChannel server;
  /** Who made the socket: the only peer it serves. */
  private final UserPrincipal owner;
  private Thread acceptor;

  private PrivateSocket(Path path, ServerSocketChannel server, UserPrincipal owner) {
    this.path = path;
    this.server = server;
    this.owner = owner;
  }

  /** Binds a listening socket at {@code path}, replacing what is there; nothing is accepted until {@link #start}. */
  public static PrivateSocket bind(Path path) throws IOException {
    Path folder = path.getParent();
    Files.createDirectories(folder);
    Path hidden = Files.createTempDirectory(folder, ".braid-rpc-",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path bound = hidden.resolve("s");
    ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    UserPrincipal owner;
    try {
      server.bind(UnixDomainSocketAddress.of(bound));
      Files.setPosixFilePermissions(bound, PosixFilePermissions.fromString("rw-------"));
      owner = Files.getOwner(bound);
      Files.move(bound, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException | RuntimeException e) {
      server.close();
      Files.deleteIfExists(bound);
      throw e;
    } finally {
      Files.deleteIfExists(hidden);
    }
    return new PrivateSocket(path, server, owner);
  }

  /** Starts accepting on a thread named {@code threadName}, each connection handed to {@code accepted}; once. */
  public synchronized void start(String threadName, Consumer<SocketChannel> accepted) {
    if (acceptor != null) {
      throw new IllegalStateException("already accepting");
    }
    acceptor = new Thread(() -> accept(accepted), threadName);
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Where it listens. */
  public Path path() {
    return path;
  }

  private void accept(Consumer<SocketChannel> accepted) {
    while (true) {
      SocketChannel ch;
      try {
        ch = server.accept();
      } catch (ClosedChannelException closed) {
        return;
      } catch (IOException e) {
        // a connection that failed while it was accepted, or no descriptor left: the socket goes
        // on, after a pause, so that a failure that repeats does not spin this thread
        try {
          Thread.sleep(100);
        } catch (InterruptedException interrupted) {
          return;
        }
        continue;
      }
      if (fromOwner(ch)) {
        accepted.accept(ch);
      } else {
        try {
          ch.close();
        } catch (IOException e) {
          // refused either way
        }
      }
    }
  }

  /** Whether the kernel names the connection's peer as the socket's owner; a peer it cannot name is refused. */
  private boolean fromOwner(SocketChannel ch) {
    try {
      UnixDomainPrincipal peer = ch.getOption(ExtendedSocketOptions.SO_PEERCRED);
      return peer != null && peer.user().equals(owner);
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  /** Stops listening and removes the socket file (the connections are their owners' to close). */
  @Override
  public void close() {
    try {
      server.close();
      Files.deleteIfExists(path);
    } catch (IOException e) {
      // the socket file stays; the next one bound there replaces it, and a client finds nothing behind it
    }
    Thread t;
    synchronized (this) {
      t = acceptor;
    }
    if (t != null) {
      try {
        t.join(1_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
