package dev.braid.rpc;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * JSON-RPC on a Unix domain socket, for clients on this machine: each line a client writes is a
 * request or a batch, answered by a line on the same connection, and every connection hears the
 * notifications as lines; the same {@link Dispatcher}, so the same secret, as the WebSocket. A
 * local client needs no HTTP or WebSocket stack to start: this is what {@code braid get} uses when
 * a daemon runs. The socket is a {@link PrivateSocket}: no other user ever connects.
 *
 * <p>Threads: one accept thread owned here, and each connection's two ({@link LocalConnection}).
 * {@link #close()} closes the listening socket, which ends the accept thread, and every connection.
 */
final class LocalEndpoint implements AutoCloseable {
  /** More connections than any set of local commands opens at once; beyond, a connection is closed at once. */
  private static final int MAX_CONNECTIONS = 64;

  private final Path path;
  private final ServerSocketChannel server;
  private final Dispatcher dispatcher;
  private final int maxLineBytes;
  private final Duration unauthorizedDelay;
  private final Set<LocalConnection> open = ConcurrentHashMap.newKeySet();
  private final Thread acceptor;

  private LocalEndpoint(Path path, ServerSocketChannel server, Dispatcher dispatcher, int maxLineBytes,
      Duration unauthorizedDelay) {
    this.path = path;
    this.server = server;
    this.dispatcher = dispatcher;
    this.maxLineBytes = maxLineBytes;
    this.unauthorizedDelay = unauthorizedDelay;
    this.acceptor = new Thread(this::accept, "braid-rpc-local");
    acceptor.setDaemon(true);
  }

  /** Binds {@code path} (replacing what is there) and starts accepting. */
  static LocalEndpoint start(Path path, Dispatcher dispatcher, int maxLineBytes, Duration unauthorizedDelay)
      throws IOException {
    ServerSocketChannel server = PrivateSocket.bind(path);
    LocalEndpoint endpoint = new LocalEndpoint(path, server, dispatcher, maxLineBytes, unauthorizedDelay);
    endpoint.acceptor.start();
    return endpoint;
  }

  /** Where it listens. */
  Path path() {
    return path;
  }

  private void accept() {
    while (true) {
      SocketChannel ch;
      try {
        ch = server.accept();
      } catch (ClosedChannelException closed) {
        return;
      } catch (IOException e) {
        // a connection that failed while it was accepted, or no descriptor left: the endpoint goes
        // on, after a pause, so that a failure that repeats does not spin this thread
        try {
          Thread.sleep(100);
        } catch (InterruptedException interrupted) {
          return;
        }
        continue;
      }
      if (open.size() >= MAX_CONNECTIONS) {
        LocalConnection.closeQuietly(ch);
        continue;
      }
      LocalConnection c = new LocalConnection(ch, dispatcher, maxLineBytes, unauthorizedDelay, open::remove);
      open.add(c);
      c.start();
    }
  }

  /** Sends a notification to every connection, without waiting for any. */
  void broadcast(String json) {
    for (LocalConnection c : open) {
      c.send(json);
    }
  }

  /** Stops listening, removes the socket file and closes every connection. */
  @Override
  public void close() {
    try {
      server.close();
      Files.deleteIfExists(path);
    } catch (IOException e) {
      // the socket file stays; the next daemon replaces it
    }
    open.forEach(LocalConnection::close);
    try {
      acceptor.join(1_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
