package dev.braid.cli;

import dev.braid.client.BraidClient;
import dev.braid.client.remote.DaemonLink;
import dev.braid.rpc.PrivateSocket;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The daemon's relay of whole command lines: a {@code braid get}, {@code list}, {@code status},
 * {@code pause}, {@code resume} or {@code remove} started on this machine sends its arguments here
 * ({@link RelayClient}) and this JVM, warm, runs the command as the client would have, on this
 * daemon's own engine through the client port ({@link BorrowedClient}), printing back through the socket. The client then starts as fast as a
 * JVM can: it parses nothing and loads neither picocli nor JSON. The socket is {@code
 * STATE_DB.cli-socket}, a {@link PrivateSocket}: a session on it is this user's, which needs no
 * secret (a daemon started with {@code --rpc-secret} keeps no secret file a client could read).
 *
 * <p>Threads: the socket's accept thread, and each session's two ({@link RelaySession}). {@link
 * #close()} closes the listening socket, which ends the accept thread, and every session.
 */
final class CommandRelay implements AutoCloseable {
  /** Command lines at once; beyond, a client is told at once to run its command itself. */
  private static final int MAX_SESSIONS = 64;
  /** How long {@link #close()} lets running commands end on their own. */
  private static final Duration LAST_WORDS = Duration.ofSeconds(3);

  /**
   * What a session needs of its daemon: the endpoint it was found
   * by (its folders), the daemon's engine the commands work on, and the variables that pick
   * default files ({@link RelayClient#ENVIRONMENT}).
   */
  record Daemon(DaemonLink.Endpoint endpoint, BraidClient engine, List<String> environment) {
    static Daemon of(DaemonLink.Endpoint endpoint, BraidClient engine) {
      return new Daemon(endpoint, engine, RelayClient.environment());
    }
  }

  private final PrivateSocket socket;
  private final Daemon daemon;
  private final Set<RelaySession> open = ConcurrentHashMap.newKeySet();
  /** Set by {@link #close()}: the daemon is stopping, and its engine answers relayed commands no more. */
  private volatile boolean stopping;

  private CommandRelay(PrivateSocket socket, Daemon daemon) {
    this.socket = socket;
    this.daemon = daemon;
  }

  /** Binds {@code path} (replacing what is there) and starts accepting. */
  static CommandRelay start(Path path, Daemon daemon) throws IOException {
    CommandRelay relay = new CommandRelay(PrivateSocket.bind(path), daemon);
    relay.socket.start("braid-relay", relay::accepted);
    return relay;
  }

  private void accepted(SocketChannel ch) {
    if (open.size() >= MAX_SESSIONS) {
      try (ch) {
        ch.write(ByteBuffer.wrap(new byte[] {RelayFrames.LOCAL}));
      } catch (IOException e) {
        // refused either way
      }
      return;
    }
    RelaySession s = new RelaySession(ch, daemon, () -> stopping, open::remove);
    open.add(s);
    s.start();
  }

  /**
   * Stops listening, removes the socket file and ends every session: the engine refuses their
   * calls from now on, and each is given {@link #LAST_WORDS} to end on its own first (a relayed
   * get tells its client that it lost the daemon and that its downloads stay), then closed.
   */
  @Override
  public void close() {
    stopping = true;
    socket.close();
    long deadline = System.nanoTime() + LAST_WORDS.toNanos();
    try {
      for (RelaySession s : open) {
        s.awaitEnd(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    open.forEach(RelaySession::close);
  }
}
